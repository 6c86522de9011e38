/**
 * Work queues for controllers, after client-go's {@code util/workqueue}.
 *
 * <ul>
 *   <li><b>Fair:</b> items are handed out in the order they were added.</li>
 *   <li><b>Stingy:</b> an item added many times before it is processed is processed once.</li>
 *   <li><b>One at a time:</b> an item is never handed to two workers at once; an item added while it is
 *       being processed is queued again once {@link io.kplane.client.workqueue.WorkQueue#done} is called.</li>
 *   <li><b>Many producers and consumers</b>, and graceful shutdown with or without draining.</li>
 * </ul>
 * {@link io.kplane.client.workqueue.DelayingQueue} adds {@code addAfter} (ordered by due time on the injected
 * clock); {@link io.kplane.client.workqueue.RateLimitingQueue} adds per-item back-off through a
 * {@link io.kplane.client.workqueue.ratelimiter.RateLimiter}.
 */
package io.kplane.client.workqueue;
