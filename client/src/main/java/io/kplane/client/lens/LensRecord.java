package io.kplane.client.lens;

import java.time.Instant;
import java.util.Map;

/**
 * One record of the lens, as served by {@code /lens/snapshot} and {@code /lens/stream} (shape in
 * docs/lens.md). Built without {@code seq}/{@code time}/{@code component}; {@link LensRecorder} stamps
 * them when the record enters its ring buffer.
 *
 * @param detail small stage-specific facts (a few entries), or null
 * @param sync   only on {@code stage = sync}
 */
public record LensRecord(
        long seq,
        Instant time,
        String component,
        String controller,
        String stage,
        String type,
        String resource,
        String key,
        String rv,
        String uid,
        Map<String, Object> detail,
        SyncSummary sync) {

    public static LensRecord of(
            String controller,
            String stage,
            String type,
            String resource,
            String key,
            String rv,
            Map<String, Object> detail) {
        return new LensRecord(0, null, null, controller, stage, type, resource, key, rv, null, detail, null);
    }

    public LensRecord withUid(String uid) {
        return new LensRecord(seq, time, component, controller, stage, type, resource, key, rv, uid, detail, sync);
    }

    LensRecord stamped(long seq, Instant time, String component) {
        return new LensRecord(seq, time, component, controller, stage, type, resource, key, rv, uid, detail, sync);
    }
}
