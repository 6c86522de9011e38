/**
 * The clock abstraction: {@link io.kplane.client.time.Clock#now()} plus delayed work
 * ({@link io.kplane.client.time.Clock#schedule}, {@link io.kplane.client.time.Clock#sleep}). Production code uses
 * {@link io.kplane.client.time.Clock#system()}; tests use {@link io.kplane.client.time.FakeClock} and move time with
 * {@code advance(Duration)}, so back-offs of minutes are tested in milliseconds and without sleeps.
 */
package io.kplane.client.time;
