package io.kplane.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.meta.Status;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.storage.Trees;
import java.util.List;
import java.util.regex.Pattern;

/** Validates object names: DNS-1123 labels for namespaces, DNS-1123 subdomains for everything else. */
public final class NameAdmission implements Admission {
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    @Override
    public ObjectNode admit(ResourceType type, ObjectNode object, ObjectNode old) {
        if (old != null) {
            return object;
        }
        String name = Trees.name(object);
        String problem = problem(type, name);
        if (problem != null) {
            throw ApiError.invalid(
                    type,
                    name,
                    List.of(new Status.StatusCause(
                            name == null || name.isEmpty() ? "FieldValueRequired" : "FieldValueInvalid",
                            problem,
                            "metadata.name")));
        }
        return object;
    }

    /** The Kubernetes message for an invalid name, or null if it is valid. */
    public static String problem(ResourceType type, String name) {
        if (name == null || name.isEmpty()) {
            return "Required value: name or generateName is required";
        }
        if (type == ResourceTypes.NAMESPACES) {
            if (name.length() > 63 || !LABEL.matcher(name).matches()) {
                return "Invalid value: \"" + name + "\": a lowercase RFC 1123 label must consist of lower case "
                        + "alphanumeric characters or '-', and must start and end with an alphanumeric character "
                        + "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
            }
            return null;
        }
        if (name.length() > 253 || !SUBDOMAIN.matcher(name).matches()) {
            return "Invalid value: \"" + name + "\": a lowercase RFC 1123 subdomain must consist of lower case "
                    + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
                    + "(e.g. 'example.com', regex used for validation is "
                    + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
        }
        return null;
    }
}
