package io.kplane.apiserver.ui;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server speaking the lens contract (docs/lens.md) with records the test supplies: lets
 * the apiserver-side UI tests run without every controller process. The launcher's
 * {@code LensUiBrowserIT} runs the same page against the real components.
 */
final class ContractComponent implements AutoCloseable {
    private final Vertx vertx = Vertx.vertx();
    private final HttpServer server;
    private final List<String> records = new CopyOnWriteArrayList<>();
    private final List<HttpServerResponse> streams = new CopyOnWriteArrayList<>();
    private volatile boolean paused;
    private volatile String queueItems = "[]";
    final List<String> controlCalls = new CopyOnWriteArrayList<>();

    ContractComponent() throws Exception {
        server = vertx.createHttpServer()
                .requestHandler(req -> {
                    String path = req.path();
                    if (path.equals("/lens/snapshot")) {
                        req.response()
                                .putHeader("Content-Type", "application/json")
                                .end(snapshot());
                    } else if (path.equals("/lens/stream")) {
                        long since = req.getParam("since") == null ? 0 : Long.parseLong(req.getParam("since"));
                        HttpServerResponse r =
                                req.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
                        // like the real components: headers and a comment at once, so the reader knows it is live
                        r.write(": lens stream of job-controller\n\n");
                        for (int i = (int) since; i < records.size(); i++) {
                            r.write(event(i + 1, records.get(i)));
                        }
                        streams.add(r);
                        r.closeHandler(v -> streams.remove(r));
                    } else if (path.startsWith("/lens/objects/")) {
                        String key = path.substring("/lens/objects/".length());
                        List<String> syncs = records.stream()
                                .filter(r -> r.contains("\"stage\":\"sync\"") && r.contains("\"key\":\"" + key + "\""))
                                .toList();
                        req.response()
                                .putHeader("Content-Type", "application/json")
                                .end("{\"key\":\"" + key + "\",\"syncs\":[" + String.join(",", syncs) + "]}");
                    } else if (path.startsWith("/lens/controllers/job/")) {
                        String action = path.substring(path.lastIndexOf('/') + 1);
                        controlCalls.add(action);
                        if (action.equals("pause")) {
                            paused = true;
                        } else if (action.equals("resume")) {
                            paused = false;
                        }
                        req.response()
                                .putHeader("Content-Type", "application/json")
                                .end("{\"name\":\"job\",\"paused\":" + paused + ",\"stepsPending\":0}");
                    } else {
                        req.response().setStatusCode(404).end();
                    }
                })
                .listen(0, "127.0.0.1")
                .await(10, TimeUnit.SECONDS);
    }

    String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    void queue(String itemsJson) {
        queueItems = itemsJson;
    }

    /** Appends a record (its seq and time are filled in) and sends it to every open stream. */
    synchronized void emit(String stage, String type, String resource, String key, String rv, String extra) {
        int seq = records.size() + 1;
        String json = "{\"seq\":" + seq + ",\"time\":\"" + Instant.now() + "\",\"component\":\"job-controller\","
                + "\"controller\":" + (stage.equals("reflector") ? "null" : "\"job\"") + ",\"stage\":\"" + stage
                + "\",\"type\":\"" + type + "\",\"resource\":\"" + resource + "\",\"key\":\"" + key + "\""
                + (rv == null ? "" : ",\"rv\":\"" + rv + "\"") + (extra == null ? "" : "," + extra.replace("\n", " "))
                + "}";
        records.add(json);
        vertx.runOnContext(v -> streams.forEach(s -> s.write(event(seq, json))));
    }

    private static String event(int seq, String json) {
        return "id: " + seq + "\ndata: " + json + "\n\n";
    }

    private String snapshot() {
        return "{\"component\":\"job-controller\",\"instance\":\"test\",\"now\":\"" + Instant.now() + "\",\"seq\":"
                + records.size()
                + ",\"sampling\":false,\"controllers\":[{\"name\":\"job\",\"queue\":\"job\",\"paused\":"
                + paused + ",\"counters\":{\"depth\":1,\"adds\":" + records.size() + ",\"retries\":0,\"inFlight\":0,"
                + "\"syncs\":1,\"syncP50Ms\":1.2,\"syncP99Ms\":8.0,\"pendingExpectations\":0,\"fifoDepth\":0,"
                + "\"cacheObjects\":{\"jobs\":1,\"pods\":3}},\"queueItems\":" + queueItems + "}],\"records\":["
                + String.join(",", records.subList(Math.max(0, records.size() - 500), records.size()))
                + "]}"; // the last 500, as the real components
    }

    @Override
    public void close() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }
}
