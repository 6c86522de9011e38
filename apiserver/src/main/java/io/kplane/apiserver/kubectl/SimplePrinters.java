package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.textOr;
import static io.kplane.apiserver.kubectl.ObjectFields.time;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.util.HumanDuration;
import java.time.Instant;
import java.util.List;

/** The small printers: namespaces (NAME STATUS AGE), leases (NAME HOLDER AGE), and the NAME AGE default. */
final class SimplePrinters {
    private SimplePrinters() {}

    static final class NamespacePrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(
                TableColumn.nameColumn(),
                TableColumn.of("Status", "The status of the namespace"),
                TableColumn.ageColumn());

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode ns, Instant now) {
            return List.of(
                    text(ns, "metadata.name"),
                    text(ns, "status.phase"),
                    HumanDuration.since(time(ns, "metadata.creationTimestamp"), now));
        }
    }

    static final class LeasePrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(
                TableColumn.nameColumn(),
                TableColumn.of("Holder", "holderIdentity contains the identity of the holder of a current lease."),
                TableColumn.ageColumn());

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode lease, Instant now) {
            return List.of(
                    text(lease, "metadata.name"),
                    textOr(lease, "spec.holderIdentity", "<unknown>"),
                    HumanDuration.since(time(lease, "metadata.creationTimestamp"), now));
        }
    }

    static final class DefaultPrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(TableColumn.nameColumn(), TableColumn.ageColumn());

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode obj, Instant now) {
            return List.of(
                    text(obj, "metadata.name"), HumanDuration.since(time(obj, "metadata.creationTimestamp"), now));
        }
    }
}
