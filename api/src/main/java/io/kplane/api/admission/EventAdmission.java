package io.kplane.api.admission;

import io.kplane.api.core.Event;

/** core/v1 Events: Kubernetes' legacy event validation. */
public final class EventAdmission extends TypedAdmission<Event> {
    static final int REASON_LIMIT = 128;
    static final int ACTION_LIMIT = 128;
    static final int REPORTING_INSTANCE_LIMIT = 128;
    static final int NOTE_LIMIT = 1024;

    public EventAdmission() {
        super(Event.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    void validateSpec(Event event, FieldErrors errs) {
        String namespace = event.namespace() == null ? "" : event.namespace();
        String involvedNamespace =
                event.involvedObject() == null || event.involvedObject().namespace() == null
                        ? ""
                        : event.involvedObject().namespace();
        if (event.eventTime() == null) {
            boolean mismatch = involvedNamespace.isEmpty()
                    ? !namespace.isEmpty() && !namespace.equals("default")
                    : !namespace.equals(involvedNamespace);
            if (mismatch) {
                errs.add(FieldError.invalid(
                        "involvedObject.namespace", involvedNamespace, "does not match event.namespace"));
            }
        } else {
            if (involvedNamespace.isEmpty() && !namespace.equals("default") && !namespace.equals("kube-system")) {
                errs.add(FieldError.invalid(
                        "involvedObject.namespace", involvedNamespace, "does not match event.namespace"));
            }
            String component = event.reportingComponent() == null ? "" : event.reportingComponent();
            if (component.isEmpty()) {
                errs.add(FieldError.required("reportingComponent", ""));
            }
            errs.invalidEach("reportingComponent", component, NameRules.qualifiedName(component));
            required(event.reportingInstance(), "reportingInstance", REPORTING_INSTANCE_LIMIT, errs);
            required(event.action(), "action", ACTION_LIMIT, errs);
            required(event.reason(), "reason", REASON_LIMIT, errs);
            if (event.message() != null && event.message().length() > NOTE_LIMIT) {
                errs.add(FieldError.invalid("message", "", "can have at most " + NOTE_LIMIT + " characters"));
            }
        }
        if (!namespace.isEmpty()) {
            errs.invalidEach("namespace", namespace, NameRules.dns1123Subdomain(namespace));
        }
    }

    private static void required(String value, String field, int limit, FieldErrors errs) {
        if (value == null || value.isEmpty()) {
            errs.add(FieldError.required(field, ""));
        } else if (value.length() > limit) {
            errs.add(FieldError.invalid(field, "", "can have at most " + limit + " characters"));
        }
    }
}
