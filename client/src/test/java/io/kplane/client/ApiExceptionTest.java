package io.kplane.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The error mapping the full client and kubectl-lite's plain-HTTP transport share. */
class ApiExceptionTest {

    @Test
    void aStatusBodyGivesCodeReasonAndMessage() {
        byte[] body =
                """
                {"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods \\"web\\" already exists",
                 "reason":"AlreadyExists","code":409}"""
                        .getBytes(StandardCharsets.UTF_8);
        ApiException e = ApiException.fromResponse(409, body);
        assertThat(e.code()).isEqualTo(409);
        assertThat(e.reason()).isEqualTo("AlreadyExists");
        assertThat(e.getMessage()).isEqualTo("pods \"web\" already exists");
        assertThat(e.status()).isNotNull();
    }

    @Test
    void aStatusWithoutCodeOrReasonTakesThemFromTheResponse() {
        byte[] body = "{\"kind\":\"Status\",\"message\":\"gone\"}".getBytes(StandardCharsets.UTF_8);
        ApiException e = ApiException.fromResponse(410, body);
        assertThat(e.code()).isEqualTo(410);
        assertThat(e.reason()).isEqualTo("Expired");
        assertThat(e.getMessage()).isEqualTo("gone");
    }

    @Test
    void anyOtherBodyIsReportedAsText() {
        ApiException e = ApiException.fromResponse(502, "  upstream down\n".getBytes(StandardCharsets.UTF_8));
        assertThat(e.reason()).isEqualTo("Unknown");
        assertThat(e.getMessage()).isEqualTo("upstream down");
        assertThat(e.status()).isNull();
    }

    @Test
    void anEmptyBodyNamesTheStatusCode() {
        assertThat(ApiException.fromResponse(404, new byte[0]).getMessage())
                .isEqualTo("the server responded 404 NotFound");
        assertThat(ApiException.fromResponse(403, null).reason()).isEqualTo("Forbidden");
    }
}
