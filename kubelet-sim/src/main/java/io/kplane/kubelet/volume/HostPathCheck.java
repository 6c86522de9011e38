package io.kplane.kubelet.volume;

import io.kplane.api.core.HostPathVolumeSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The {@code hostPath.type} checks of the kubelet's hostpath plugin (checkTypeInternal): "" checks
 * nothing; DirectoryOrCreate / FileOrCreate create what is missing (0755 directory, 0644 empty file);
 * Directory, File, Socket, CharDevice, BlockDevice require it, with upstream's messages.
 */
final class HostPathCheck {
    private HostPathCheck() {}

    static Path check(HostPathVolumeSource src) throws VolumeSetupException {
        Path path = Path.of(src.path());
        String type = src.type() == null ? "" : src.type();
        try {
            switch (type) {
                case "" -> {
                    // no check, as the default
                }
                case "DirectoryOrCreate" -> {
                    if (!Files.exists(path)) {
                        Files.createDirectories(path);
                        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
                    }
                    require(Files.isDirectory(path), path + " is not a directory");
                }
                case "Directory" -> require(Files.isDirectory(path), path + " is not a directory");
                case "FileOrCreate" -> {
                    if (!Files.exists(path)) {
                        Files.createDirectories(path.getParent());
                        Files.createFile(path);
                        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-r--r--"));
                    }
                    require(Files.isRegularFile(path), path + " is not a file");
                }
                case "File" -> require(Files.isRegularFile(path), path + " is not a file");
                case "Socket" -> require(fileType(path).equals("socket"), path + " is not a socket file");
                case "CharDevice" -> require(
                        fileType(path).equals("character special file"), path + " is not a character device");
                case "BlockDevice" -> require(
                        fileType(path).equals("block special file"), path + " is not a block device");
                default -> throw new VolumeSetupException(type + " is an invalid volume type");
            }
        } catch (IOException e) {
            throw new VolumeSetupException("hostPath " + path + ": " + e.getMessage());
        }
        return path;
    }

    private static void require(boolean ok, String what) throws VolumeSetupException {
        if (!ok) {
            throw new VolumeSetupException("hostPath type check failed: " + what);
        }
    }

    /** {@code stat --format=%F}: Java's file attributes do not tell sockets and devices apart. */
    private static String fileType(Path path) throws IOException {
        if (!Files.exists(path)) {
            return "";
        }
        Process p = new ProcessBuilder("stat", "--format=%F", path.toString())
                .redirectErrorStream(true)
                .start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 ? out : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
