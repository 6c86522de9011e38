package io.kplane.api.meta;

import java.util.List;

/** A list response ({@code JobList}, {@code PodList}, ...). */
public record KubeList<T>(String apiVersion, String kind, ListMeta metadata, List<T> items) {}
