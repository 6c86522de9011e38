package io.kplane.api.core;

/** A path of the node; {@code type} asks for checks (Directory, File, ...) or creation (DirectoryOrCreate, FileOrCreate). */
public record HostPathVolumeSource(String path, String type) {
}
