package io.kplane.kubelet.volume;

/** A volume cannot be set up (yet); the message is the part after {@code MountVolume.SetUp failed for volume "v" : }. */
public final class VolumeSetupException extends Exception {
    public VolumeSetupException(String message) {
        super(message);
    }
}
