package io.kplane.apiserver.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.http.Responses;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * kplane runs no Services, but {@code kubectl cluster-info} looks them up: it resolves {@code services}
 * through discovery, then lists {@code kube-system} services labelled
 * {@code kubernetes.io/cluster-service=true} to print their proxy URLs after the control plane's. So
 * discovery lists {@code services} as a read-only resource (get, list) and every list is empty; a
 * named service is not found. Nothing is stored.
 */
public final class ServiceLookups {
    /** The discovery entry: core v1, namespaced, short name {@code svc}, only get and list. */
    public static final ResourceType SERVICES = new ResourceType(
            "",
            "v1",
            "services",
            "Service",
            "ServiceList",
            "service",
            true,
            List.of("svc"),
            List.of(),
            List.of("get", "list"),
            List.of(),
            null);

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final TableRenderer tables;

    public ServiceLookups(TableRenderer tables) {
        this.tables = tables;
    }

    void mount(Router router) {
        router.get("/api/v1/services").handler(this::list);
        router.get("/api/v1/namespaces/:namespace/services").handler(this::list);
        router.get("/api/v1/namespaces/:namespace/services/:name")
                .handler(ctx -> Responses.error(ctx, ApiError.notFound(SERVICES, ctx.pathParam("name"))));
    }

    private void list(RoutingContext ctx) {
        if ("true".equals(ctx.request().getParam("watch"))
                || "1".equals(ctx.request().getParam("watch"))) {
            Responses.error(ctx, ApiError.methodNotAllowed("watch"));
            return;
        }
        if (TableRenderer.wantsTable(ctx.request().getHeader("Accept"))) {
            Responses.json(
                    ctx,
                    200,
                    tables.list(
                            SERVICES.kind(),
                            List.<JsonNode>of(),
                            "",
                            null,
                            TableRenderer.IncludeObject.parse(ctx.request().getParam("includeObject"))),
                    "application/json;as=Table;v=v1;g=meta.k8s.io",
                    List.of());
            return;
        }
        ObjectNode list = NODES.objectNode();
        list.put("kind", SERVICES.listKind());
        list.put("apiVersion", "v1");
        list.putObject("metadata");
        list.putArray("items");
        Responses.json(ctx, 200, list);
    }
}
