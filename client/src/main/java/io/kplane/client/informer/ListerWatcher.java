package io.kplane.client.informer;

import io.kplane.api.meta.KubeList;
import io.kplane.api.meta.KubeObject;
import io.kplane.client.ListOptions;
import io.kplane.client.ResourceClient;
import io.kplane.client.WatchStream;

/** The two calls a {@link Reflector} makes; {@link #of(ResourceClient, ListOptions)} adapts a REST client. */
public interface ListerWatcher<T> {
    KubeList<T> list(ListOptions options);

    WatchStream<T> watch(ListOptions options);

    /**
     * List and watch through {@code client} (scoped to its namespace, if any), adding {@code filter}'s label
     * and field selectors to every call.
     */
    static <T extends KubeObject> ListerWatcher<T> of(ResourceClient<T> client, ListOptions filter) {
        return new ListerWatcher<>() {
            @Override
            public KubeList<T> list(ListOptions options) {
                return client.list(merge(options));
            }

            @Override
            public WatchStream<T> watch(ListOptions options) {
                return client.watch(merge(options));
            }

            private ListOptions merge(ListOptions options) {
                return options.withLabelSelector(filter.labelSelector()).withFieldSelector(filter.fieldSelector());
            }
        };
    }

    static <T extends KubeObject> ListerWatcher<T> of(ResourceClient<T> client) {
        return of(client, ListOptions.none());
    }
}
