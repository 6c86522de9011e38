package io.kplane.api.admission;

import io.kplane.api.coordination.Lease;

/** Leases: positive duration, non-negative transitions ({@code ValidateLeaseSpec}). */
public final class LeaseAdmission extends TypedAdmission<Lease> {
    public LeaseAdmission() {
        super(Lease.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    void validateSpec(Lease lease, FieldErrors errs) {
        if (lease.spec() == null) {
            return;
        }
        Integer duration = lease.spec().leaseDurationSeconds();
        if (duration != null && duration <= 0) {
            errs.add(FieldError.invalid("spec.leaseDurationSeconds", duration, "must be greater than 0"));
        }
        errs.nonNegative("spec.leaseTransitions", lease.spec().leaseTransitions());
    }
}
