package io.kplane.api.meta;

public record ListMeta(String resourceVersion, String _continue, Long remainingItemCount) {
    // "continue" is a Java keyword; the JSON name is set by Json's mixin-free naming below.
    @Override
    @com.fasterxml.jackson.annotation.JsonProperty("continue")
    public String _continue() {
        return _continue;
    }

    public static ListMeta of(String resourceVersion) {
        return new ListMeta(resourceVersion, null, null);
    }
}
