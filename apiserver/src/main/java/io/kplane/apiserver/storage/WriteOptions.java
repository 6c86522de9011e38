package io.kplane.apiserver.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * Options of one write request. {@code warnings} collects what the response should carry in
 * {@code Warning} headers (e.g. unknown fields under {@code fieldValidation=Warn}).
 */
public record WriteOptions(boolean dryRun, FieldValidation fieldValidation, List<String> warnings) {

    public static WriteOptions of(boolean dryRun, FieldValidation fieldValidation) {
        return new WriteOptions(dryRun, fieldValidation, new ArrayList<>());
    }

    public static WriteOptions defaults() {
        return of(false, FieldValidation.IGNORE);
    }
}
