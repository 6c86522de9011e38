package io.kplane.kubelet;

import io.kplane.api.core.Pod;
import io.kplane.api.json.Json;

/** Pods for tests, written as the YAML a user would write. */
final class PodManifests {
    private PodManifests() {}

    static Pod parse(String yaml) {
        try {
            return Json.yamlMapper().readValue(yaml, Pod.class);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** One container running {@code sh -c script} on {@code node}. */
    static Pod shPod(String name, String node, String restartPolicy, String script) {
        return parse(
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: default
                spec:
                  nodeName: %s
                  restartPolicy: %s
                  terminationGracePeriodSeconds: 5
                  containers:
                  - name: main
                    image: busybox
                    command: ["sh", "-c"]
                    args: [%s]
                """
                        .formatted(name, node, restartPolicy, quote(script)));
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Any object written as YAML, as JSON. */
    static com.fasterxml.jackson.databind.JsonNode yamlTree(String yaml) {
        try {
            return Json.yamlMapper().readTree(yaml);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
