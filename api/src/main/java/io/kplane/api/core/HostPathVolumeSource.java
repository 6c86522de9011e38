package io.kplane.api.core;

/** core/v1 HostPathVolumeSource: a path of the node; {@code type} asks for checks (Directory, File, ...) or creation (DirectoryOrCreate, FileOrCreate). */
public record HostPathVolumeSource(String path, String type) {
}
