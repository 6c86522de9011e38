package io.kplane.api.core;

/** Maps a key of a ConfigMap or Secret to a relative file path in a volume, with an optional file mode. */
public record KeyToPath(String key, String path, Integer mode) {}
