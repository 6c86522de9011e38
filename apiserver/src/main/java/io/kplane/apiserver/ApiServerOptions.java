package io.kplane.apiserver;

import io.kplane.apiserver.admission.Admission;
import io.kplane.apiserver.admission.AdmissionChain;
import io.kplane.apiserver.auth.TokenAuthenticator;
import io.kplane.apiserver.codec.RequestBodyDecoder;
import io.kplane.apiserver.render.ResponseRenderer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** How to run an {@link ApiServer}. Fluent setters; defaults match {@code ApiServerMain}'s. */
public final class ApiServerOptions {
    public static final int DEFAULT_MAX_BODY_BYTES = 3 * 1024 * 1024;

    private String bindHost = "127.0.0.1";
    private int port = 6443;
    private TokenAuthenticator authenticator;
    private Path tlsCertFile;
    private Path tlsKeyFile;
    private String kubeletToken;
    private int maxRequestsInflight = 400;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private Duration bookmarkInterval = Duration.ofSeconds(60);
    private Clock clock = Clock.systemUTC();
    private int eventLoops = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
    private Admission admission = AdmissionChain.standard();
    private final List<ResponseRenderer> renderers = new ArrayList<>();
    private final List<RequestBodyDecoder> decoders = new ArrayList<>();
    private io.kplane.apiserver.watch.WatchAnswerGate watchAnswerGate;

    public String bindHost() {
        return bindHost;
    }

    public ApiServerOptions bindHost(String value) {
        this.bindHost = value;
        return this;
    }

    public int port() {
        return port;
    }

    /** 0 picks a free port. */
    public ApiServerOptions port(int value) {
        this.port = value;
        return this;
    }

    public TokenAuthenticator authenticator() {
        return authenticator;
    }

    /** Null (the default) serves without authentication. */
    public ApiServerOptions authenticator(TokenAuthenticator value) {
        this.authenticator = value;
        return this;
    }

    public Path tlsCertFile() {
        return tlsCertFile;
    }

    public Path tlsKeyFile() {
        return tlsKeyFile;
    }

    /** PEM certificate (chain) and private key; both null serves plain HTTP. */
    public ApiServerOptions tls(Path certFile, Path keyFile) {
        this.tlsCertFile = certFile;
        this.tlsKeyFile = keyFile;
        return this;
    }

    public String kubeletToken() {
        return kubeletToken;
    }

    /** Bearer token sent to kubelets when proxying pods/log. */
    public ApiServerOptions kubeletToken(String value) {
        this.kubeletToken = value;
        return this;
    }

    public int maxRequestsInflight() {
        return maxRequestsInflight;
    }

    /** Non-watch requests served at once; more get 429 with Retry-After. 0 disables the limit. */
    public ApiServerOptions maxRequestsInflight(int value) {
        this.maxRequestsInflight = value;
        return this;
    }

    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    public ApiServerOptions maxBodyBytes(int value) {
        this.maxBodyBytes = value;
        return this;
    }

    public Duration bookmarkInterval() {
        return bookmarkInterval;
    }

    public ApiServerOptions bookmarkInterval(Duration value) {
        this.bookmarkInterval = value;
        return this;
    }

    public Clock clock() {
        return clock;
    }

    public ApiServerOptions clock(Clock value) {
        this.clock = value;
        return this;
    }

    public int eventLoops() {
        return eventLoops;
    }

    /** HTTP server instances (one per event loop). */
    public ApiServerOptions eventLoops(int value) {
        this.eventLoops = Math.max(1, value);
        return this;
    }

    public Admission admission() {
        return admission;
    }

    public ApiServerOptions admission(Admission value) {
        this.admission = value;
        return this;
    }

    public List<ResponseRenderer> renderers() {
        return renderers;
    }

    /** An extra response renderer (e.g. Table), consulted before plain JSON. */
    public ApiServerOptions addRenderer(ResponseRenderer renderer) {
        renderers.add(renderer);
        return this;
    }

    public List<RequestBodyDecoder> decoders() {
        return decoders;
    }

    /** An extra request body decoder (e.g. protobuf). */
    public ApiServerOptions addDecoder(RequestBodyDecoder decoder) {
        decoders.add(decoder);
        return this;
    }

    public io.kplane.apiserver.watch.WatchAnswerGate watchAnswerGate() {
        return watchAnswerGate;
    }

    /** Tests only: holds each watch's answer (see {@link io.kplane.apiserver.watch.WatchAnswerGate}). */
    public ApiServerOptions watchAnswerGate(io.kplane.apiserver.watch.WatchAnswerGate value) {
        this.watchAnswerGate = value;
        return this;
    }
}
