package io.kplane.apiserver.http;

import io.vertx.ext.web.Router;

/**
 * Extra fixed routes (e.g. {@code /openapi/v3}) mounted before the resource routes. Implementations
 * are found with {@link java.util.ServiceLoader} and need a public no-argument constructor.
 */
public interface RouteContributor {
    void mount(Router router);
}
