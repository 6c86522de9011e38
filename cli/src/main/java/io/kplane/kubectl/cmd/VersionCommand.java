package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.kubectl.BaseCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;

/** {@code version}: the client's version and the server's {@code /version}. */
@Command(name = "version", description = "Print the client and server version information.")
public final class VersionCommand extends BaseCommand {
    public static final String CLIENT_VERSION = "v1.32.0-kplane";

    @Option(names = "--client", description = "Only the client version.")
    boolean clientOnly;

    @Override
    public Integer call() {
        out().println("Client Version: " + CLIENT_VERSION);
        if (!clientOnly) {
            JsonNode v = api().get("/version");
            out().println("Server Version: " + v.path("gitVersion").asText());
        }
        out().flush();
        return 0;
    }

    public static final class Provider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"kubectl-lite " + CLIENT_VERSION};
        }
    }
}
