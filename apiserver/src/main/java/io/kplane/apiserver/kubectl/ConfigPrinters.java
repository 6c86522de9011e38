package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ObjectFields.at;
import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.time;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.util.HumanDuration;
import java.time.Instant;
import java.util.List;

/** ConfigMaps (NAME DATA AGE), Secrets (NAME TYPE DATA AGE), ServiceAccounts (NAME SECRETS AGE), as kubectl 1.32. */
final class ConfigPrinters {
    private ConfigPrinters() {}

    static String age(JsonNode obj, Instant now) {
        return HumanDuration.since(time(obj, "metadata.creationTimestamp"), now);
    }

    static final class ConfigMapPrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(
                TableColumn.nameColumn(),
                TableColumn.of(
                                "Data",
                                "Data contains the configuration data. Each key must consist of alphanumeric "
                                        + "characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData "
                                        + "field. The keys stored in Data must not overlap with the keys in the BinaryData field, this "
                                        + "is enforced during validation process.")
                        .withType("integer"),
                TableColumn.ageColumn());

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode cm, Instant now) {
            long count = at(cm, "data").size() + at(cm, "binaryData").size();
            return List.of(text(cm, "metadata.name"), count, age(cm, now));
        }
    }

    static final class SecretPrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(
                TableColumn.nameColumn(),
                TableColumn.of(
                        "Type",
                        "Used to facilitate programmatic handling of secret data. More info: "
                                + "https://kubernetes.io/docs/concepts/configuration/secret/#secret-types"),
                TableColumn.of(
                                "Data",
                                "Data contains the secret data. Each key must consist of alphanumeric "
                                        + "characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded "
                                        + "string, representing the arbitrary (possibly non-string) data value here. Described in "
                                        + "https://tools.ietf.org/html/rfc4648#section-4")
                        .withType("integer"),
                TableColumn.ageColumn());

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode s, Instant now) {
            return List.of(
                    text(s, "metadata.name"),
                    text(s, "type"),
                    (long) at(s, "data").size(),
                    age(s, now));
        }
    }

    static final class ServiceAccountPrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(
                TableColumn.nameColumn(),
                TableColumn.of(
                                "Secrets",
                                "Secrets is a list of the secrets in the same namespace that pods running "
                                        + "using this ServiceAccount are allowed to use.")
                        .withType("integer"),
                TableColumn.ageColumn());

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode sa, Instant now) {
            return List.of(text(sa, "metadata.name"), (long) at(sa, "secrets").size(), age(sa, now));
        }
    }
}
