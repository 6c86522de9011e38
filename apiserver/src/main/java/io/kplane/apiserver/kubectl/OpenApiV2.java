package io.kplane.apiserver.kubectl;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code /openapi/v2}: an empty Swagger 2.0 document in the protobuf form kubectl asks for
 * ({@code gnostic openapi_v2.Document}: {@code swagger = 1}, {@code info = 2} with {@code title = 1},
 * {@code version = 2}).
 * <p>Why it exists at all: kubectl's default client-side validation checks an object whose group
 * version the server does not serve against the v2 document. With no document, the whole file fails
 * ({@code failed to download openapi}) and nothing in it is applied. With a document that does not
 * define the kind, kubectl skips validation for it, applies the rest and reports
 * {@code no matches for kind "X" in version "Y"} for that object, as against a real cluster. Served
 * kinds never get here (v3 answers for them), and kubectl's client-side apply, finding no v2 definition,
 * uses its compiled-in types as before.
 */
final class OpenApiV2 {
    static final String CONTENT_TYPE = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
    private static final byte[] DOCUMENT = document();

    private OpenApiV2() {}

    static byte[] protobuf() {
        return DOCUMENT.clone();
    }

    private static byte[] document() {
        ByteArrayOutputStream info = new ByteArrayOutputStream();
        stringField(info, 1, "Kubernetes");
        stringField(info, 2, "v1.32.0");
        ByteArrayOutputStream doc = new ByteArrayOutputStream();
        stringField(doc, 1, "2.0");
        bytesField(doc, 2, info.toByteArray());
        return doc.toByteArray();
    }

    private static void stringField(ByteArrayOutputStream out, int field, String value) {
        bytesField(out, field, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A length-delimited field (wire type 2); every length here is below 128, one varint byte. */
    private static void bytesField(ByteArrayOutputStream out, int field, byte[] value) {
        out.write(field << 3 | 2);
        out.write(value.length);
        out.writeBytes(value);
    }
}
