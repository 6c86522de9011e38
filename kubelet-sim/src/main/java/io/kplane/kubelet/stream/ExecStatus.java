package io.kplane.kubelet.stream;

import java.util.List;

/**
 * The {@code Status} the kubelet writes on the error channel when a command ends, as
 * {@code kubelet/cri/streaming/remotecommand} does: {@code Success}, or {@code Failure} with reason
 * {@code NonZeroExitCode} and a cause {@code ExitCode} whose message is the code (kubectl exits with
 * it), or an {@code InternalError} when the command could not run.
 */
final class ExecStatus {
    private ExecStatus() {}

    static String success() {
        return "{\"metadata\":{},\"status\":\"Success\"}";
    }

    static String exitCode(List<String> command, int code) {
        String message = "command terminated with non-zero exit code: error executing command "
                + command.toString().replace(",", "") + ", exit code " + code;
        return "{\"metadata\":{},\"status\":\"Failure\",\"message\":" + quote(message)
                + ",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\",\"message\":\""
                + code + "\"}]}}";
    }

    static String internalError(String why) {
        String message = "Internal error occurred: error executing command in container: " + why;
        return "{\"metadata\":{},\"status\":\"Failure\",\"message\":" + quote(message)
                + ",\"reason\":\"InternalError\",\"details\":{\"causes\":[{\"message\":"
                + quote("error executing command in container: " + why) + "}]},\"code\":500}";
    }

    private static String quote(String s) {
        try {
            return io.kplane.api.json.Json.mapper().writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
