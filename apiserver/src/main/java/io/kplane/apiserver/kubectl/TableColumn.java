package io.kplane.apiserver.kubectl;

/**
 * One {@code columnDefinitions} entry of a meta.k8s.io/v1 Table. Columns with {@code priority > 0} are
 * the ones kubectl shows only with {@code -o wide}; the server always sends every column.
 */
public record TableColumn(String name, String type, String format, String description, int priority) {

    public static TableColumn nameColumn() {
        return new TableColumn(
                "Name", "string", "name", "Name must be unique within a namespace. Cannot be updated.", 0);
    }

    public static TableColumn ageColumn() {
        return new TableColumn(
                "Age",
                "string",
                "",
                "CreationTimestamp is a timestamp representing the server time when this object was created.",
                0);
    }

    public static TableColumn of(String name, String description) {
        return new TableColumn(name, "string", "", description, 0);
    }

    public static TableColumn wide(String name, String description) {
        return new TableColumn(name, "string", "", description, 1);
    }

    public TableColumn withType(String newType) {
        return new TableColumn(name, newType, format, description, priority);
    }
}
