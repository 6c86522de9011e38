package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ConfigPrinters.age;
import static io.kplane.apiserver.kubectl.ObjectFields.at;
import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.time;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Roles and ClusterRoles (NAME CREATED AT), RoleBindings and ClusterRoleBindings (NAME ROLE AGE, wide
 * USERS GROUPS SERVICEACCOUNTS), as kubectl 1.32.
 */
final class RbacPrinters {
    private RbacPrinters() {}

    static final class RolePrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(
                TableColumn.nameColumn(),
                new TableColumn(
                        "Created At",
                        "date",
                        "",
                        "CreationTimestamp is a timestamp representing the server "
                                + "time when this object was created.",
                        0));

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode role, Instant now) {
            Instant created = time(role, "metadata.creationTimestamp");
            return List.of(
                    text(role, "metadata.name"),
                    created == null
                            ? ""
                            : DateTimeFormatter.ISO_INSTANT.format(created.truncatedTo(ChronoUnit.SECONDS)));
        }
    }

    static final class BindingPrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(
                TableColumn.nameColumn(),
                TableColumn.of("Role", "Role of the binding."),
                TableColumn.ageColumn(),
                TableColumn.wide("Users", "Users in the binding."),
                TableColumn.wide("Groups", "Groups in the binding."),
                TableColumn.wide("ServiceAccounts", "ServiceAccounts in the binding."));

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode b, Instant now) {
            List<String> users = new ArrayList<>();
            List<String> groups = new ArrayList<>();
            List<String> sas = new ArrayList<>();
            for (JsonNode s : at(b, "subjects")) {
                String name = s.path("name").asText("");
                switch (s.path("kind").asText("")) {
                    case "User" -> users.add(name);
                    case "Group" -> groups.add(name);
                    case "ServiceAccount" -> sas.add(s.path("namespace").asText("") + "/" + name);
                    default -> {}
                }
            }
            return List.of(
                    text(b, "metadata.name"),
                    text(b, "roleRef.kind") + "/" + text(b, "roleRef.name"),
                    age(b, now),
                    String.join(", ", users),
                    String.join(", ", groups),
                    String.join(", ", sas));
        }
    }
}
