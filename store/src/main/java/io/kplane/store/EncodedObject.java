package io.kplane.store;

import java.nio.charset.StandardCharsets;

/**
 * An object's JSON exactly as the store wrote it, without {@code metadata.resourceVersion}, plus
 * where its {@code metadata} object ends, so the JSON of the object at any revision is a splice
 * instead of another serialisation. Writes carry it from the store to the API server's response
 * and watch encoders: one serialisation per write instead of three.
 *
 * <p>{@code json(revision)} equals serialising the stored tree after the store stamped the revision
 * into it: the stamp is the last field of {@code metadata}.
 */
public final class EncodedObject {
    private final String stored;
    private final int metadataEnd;

    /**
     * @param stored      the stored JSON text (an object without {@code metadata.resourceVersion})
     * @param metadataEnd index in {@code stored} of the {@code '}'} that closes {@code metadata}
     */
    public EncodedObject(String stored, int metadataEnd) {
        if (metadataEnd <= 0 || metadataEnd >= stored.length() || stored.charAt(metadataEnd) != '}') {
            throw new IllegalArgumentException("metadataEnd " + metadataEnd + " is not the end of an object");
        }
        this.stored = stored;
        this.metadataEnd = metadataEnd;
    }

    /** The text as stored (no resourceVersion). */
    public String stored() {
        return stored;
    }

    /** The object's JSON with {@code metadata.resourceVersion} = {@code revision}. */
    public String json(long revision) {
        String rv = "\"resourceVersion\":\"" + revision + "\"";
        boolean emptyMetadata = stored.charAt(metadataEnd - 1) == '{';
        return new StringBuilder(stored.length() + rv.length() + 1)
                .append(stored, 0, metadataEnd)
                .append(emptyMetadata ? "" : ",")
                .append(rv)
                .append(stored, metadataEnd, stored.length())
                .toString();
    }

    /** {@link #json} as UTF-8. */
    public byte[] utf8(long revision) {
        return json(revision).getBytes(StandardCharsets.UTF_8);
    }
}
