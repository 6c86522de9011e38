package io.kplane.api.admission;

import io.kplane.api.lens.SyncRecord;
import io.kplane.api.lens.SyncTarget;

/**
 * SyncRecords (docs/lens.md): a target with a name, kind and uid (the uid is what {@code why} selects
 * by and what the ownerReference names), a controller, and at most {@link SyncRecord#MAX_RECORDS}
 * records, so an object of this kind stays small whoever writes it.
 */
public final class SyncRecordAdmission extends TypedAdmission<SyncRecord> {
    public SyncRecordAdmission() {
        super(SyncRecord.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    void validateSpec(SyncRecord record, FieldErrors errs) {
        SyncTarget target = record.target();
        if (target == null) {
            errs.add(FieldError.required("target", "the object the syncs were about"));
        } else {
            if (target.name() == null || target.name().isEmpty()) {
                errs.add(FieldError.required("target.name", ""));
            }
            if (target.kind() == null || target.kind().isEmpty()) {
                errs.add(FieldError.required("target.kind", ""));
            }
            if (target.uid() == null || target.uid().isEmpty()) {
                errs.add(FieldError.required("target.uid", ""));
            }
        }
        if (record.controller() == null || record.controller().isEmpty()) {
            errs.add(FieldError.required("controller", ""));
        }
        if (record.records().size() > SyncRecord.MAX_RECORDS) {
            errs.add(FieldError.tooMany("records", record.records().size(), SyncRecord.MAX_RECORDS));
        }
    }
}
