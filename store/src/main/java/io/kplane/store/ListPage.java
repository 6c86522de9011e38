package io.kplane.store;

import java.util.List;

/**
 * One page of a list. {@code revision} is the store revision the list is consistent with (the
 * list's {@code metadata.resourceVersion}); {@code continueToken} is non-null when more items follow.
 */
public record ListPage(long revision, List<StoredObject> items, String continueToken, Long remainingItemCount) {}
