/**
 * The worker loop of every controller: {@link io.kplane.client.controller.Controller} runs N workers over a
 * rate-limited queue of keys and calls a {@link io.kplane.client.controller.Reconciler}. Success forgets the key's
 * back-off; an exception or {@link io.kplane.client.controller.Result#requeue()} re-adds it rate-limited;
 * {@link io.kplane.client.controller.Result#requeueAfter} re-adds it after a delay; {@code done} always runs.
 */
package io.kplane.client.controller;
