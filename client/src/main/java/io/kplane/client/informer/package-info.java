/**
 * client-go's informer machinery ({@code tools/cache}), for any {@link io.kplane.api.meta.KubeObject} type.
 *
 * <pre>
 *  ListerWatcher ──list/watch──▶ Reflector ──add/update/delete/replace──▶ DeltaFIFO ──pop──▶ SharedInformer
 *                                                                                    │ updates Indexer (cache)
 *                                                                                    └ notifies each ResourceEventHandler
 * </pre>
 *
 * <ul>
 *   <li>{@link io.kplane.client.informer.Reflector}: lists (paged), then watches from the list's resourceVersion;
 *       re-watches from the last seen resourceVersion when a watch ends or breaks (with back-off), relists on 410 Gone.</li>
 *   <li>{@link io.kplane.client.informer.DeltaFIFO}: per-key delta lists, FIFO across keys; {@code replace} after a relist
 *       emits {@code Deleted} tombstones ({@link io.kplane.client.informer.Delta#finalStateUnknown()}) for objects that
 *       vanished while the watch was away.</li>
 *   <li>{@link io.kplane.client.informer.Indexer}: the thread-safe local cache keyed {@code namespace/name}, with named indexes.</li>
 *   <li>{@link io.kplane.client.informer.SharedInformer}: one reflector and cache shared by many handlers; each handler
 *       is called on its own thread, in event order.</li>
 * </ul>
 */
package io.kplane.client.informer;
