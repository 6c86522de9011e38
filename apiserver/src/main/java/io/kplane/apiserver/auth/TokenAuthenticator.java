package io.kplane.apiserver.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Static bearer tokens from a CSV file in kube-apiserver's {@code --token-auth-file} format:
 * {@code token,user,uid[,"group1,group2"]}, one per line; blank lines and lines starting with # are
 * skipped.
 */
public final class TokenAuthenticator {
    private final Map<String, User> users;

    public record User(String name, String uid, List<String> groups) {}

    private TokenAuthenticator(Map<String, User> users) {
        this.users = Map.copyOf(users);
    }

    public static TokenAuthenticator fromFile(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read token file " + file, e);
        }
    }

    public static TokenAuthenticator parse(String csv) {
        Map<String, User> users = new HashMap<>();
        int lineNo = 0;
        for (String line : csv.split("\r?\n")) {
            lineNo++;
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            List<String> fields = splitCsv(trimmed);
            if (fields.size() < 3 || fields.get(0).isEmpty()) {
                throw new IllegalArgumentException("token file line " + lineNo + ": expected token,user,uid[,groups]");
            }
            List<String> groups = new ArrayList<>();
            if (fields.size() > 3 && !fields.get(3).isEmpty()) {
                for (String g : fields.get(3).split(",")) {
                    if (!g.isBlank()) {
                        groups.add(g.trim());
                    }
                }
            }
            users.put(fields.get(0), new User(fields.get(1), fields.get(2), groups));
        }
        return new TokenAuthenticator(users);
    }

    /** The user of an {@code Authorization} header value, if it carries a known bearer token. */
    public Optional<User> authenticate(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        byte[] presented = authorization.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        for (Map.Entry<String, User> e : users.entrySet()) {
            if (MessageDigest.isEqual(presented, e.getKey().getBytes(StandardCharsets.UTF_8))) {
                return Optional.of(e.getValue());
            }
        }
        return Optional.empty();
    }

    private static List<String> splitCsv(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    current.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == ',' && !quoted) {
                out.add(current.toString().trim());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        out.add(current.toString().trim());
        return out;
    }
}
