package io.kplane.api.admission;

import io.kplane.api.core.ServiceAccount;

/** ServiceAccounts: DNS-1123 subdomain names ({@code ValidateServiceAccountName}); nothing else to check. */
public final class ServiceAccountAdmission extends TypedAdmission<ServiceAccount> {
    public ServiceAccountAdmission() {
        super(ServiceAccount.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }
}
