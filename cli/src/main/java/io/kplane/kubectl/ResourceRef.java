package io.kplane.kubectl;

import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A resource the user named ({@code jobs}, {@code job/pi}, {@code cj}, {@code pods.}) resolved against
 * the served types, with the REST paths built from it.
 */
public record ResourceRef(ResourceType type, String namespace, String name) {

    public static ResourceType type(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        if (t.endsWith(".")) {
            t = t.substring(0, t.length() - 1);
        }
        // no orElseThrow(lambda): every get links this call site first thing, which costs start-up time
        Optional<ResourceType> found = ResourceTypes.lookup(t);
        if (found.isEmpty()) {
            throw new CliException("error: the server doesn't have a resource type \"" + text + "\"");
        }
        return found.get();
    }

    /** {@code kind/name} or {@code kind name...} arguments as kubectl accepts them. */
    public static List<ResourceRef> parse(List<String> args, String namespace) {
        List<ResourceRef> refs = new ArrayList<>();
        if (args.isEmpty()) {
            return refs;
        }
        if (args.get(0).contains("/")) {
            for (String arg : args) {
                int slash = arg.indexOf('/');
                if (slash <= 0 || slash == arg.length() - 1) {
                    throw new CliException(
                            "error: arguments in resource/name form must have a single resource and name");
                }
                ResourceType t = type(arg.substring(0, slash));
                refs.add(new ResourceRef(t, t.namespaced() ? namespace : null, arg.substring(slash + 1)));
            }
            return refs;
        }
        List<ResourceType> types = new ArrayList<>();
        for (String part : args.get(0).split(",")) {
            if (part.equalsIgnoreCase("all")) {
                types.addAll(ResourceTypes.inCategory("all"));
            } else {
                types.add(type(part));
            }
        }
        if (args.size() == 1) {
            for (ResourceType t : types) {
                refs.add(new ResourceRef(t, t.namespaced() ? namespace : null, null));
            }
        } else {
            for (ResourceType t : types) {
                for (String name : args.subList(1, args.size())) {
                    refs.add(new ResourceRef(t, t.namespaced() ? namespace : null, name));
                }
            }
        }
        return refs;
    }

    public static String collectionPath(ResourceType type, String namespace) {
        // type.groupVersionPath()'s, appended rather than concatenated with +: this is on every get's path,
        // and the first run of a + links a StringConcatFactory call site (start-up time)
        StringBuilder p = new StringBuilder(64);
        if (type.isCoreGroup()) {
            p.append("/api/").append(type.version());
        } else {
            p.append("/apis/").append(type.group()).append('/').append(type.version());
        }
        if (type.namespaced() && namespace != null) {
            p.append("/namespaces/").append(namespace);
        }
        return p.append('/').append(type.resource()).toString();
    }

    public String collectionPath() {
        return collectionPath(type, namespace);
    }

    public String path() {
        return collectionPath() + "/" + name;
    }

    /** {@code job.batch/pi}, {@code pod/pi-abcde}: how kubectl names an object in messages. */
    public String display() {
        return qualifiedKind(type) + "/" + name;
    }

    public static String qualifiedKind(ResourceType type) {
        String kind = type.kind().toLowerCase(Locale.ROOT);
        return type.isCoreGroup() ? kind : kind + "." + type.group();
    }
}
