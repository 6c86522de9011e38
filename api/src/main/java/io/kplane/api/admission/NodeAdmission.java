package io.kplane.api.admission;

import io.kplane.api.core.Node;

/** Nodes: DNS-1123 subdomain names; the rest of the node is the kubelet's to report. */
public final class NodeAdmission extends TypedAdmission<Node> {
    public NodeAdmission() {
        super(Node.class, false, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    void validateSpecUpdate(Node newNode, Node oldNode, FieldErrors errs) {
        if (oldNode.spec() != null
                && oldNode.spec().podCIDR() != null
                && !oldNode.spec().podCIDR().isEmpty()) {
            errs.immutable(
                    "spec.podCIDR",
                    newNode.spec() == null ? null : newNode.spec().podCIDR(),
                    oldNode.spec().podCIDR());
        }
        if (oldNode.spec() != null
                && oldNode.spec().providerID() != null
                && !oldNode.spec().providerID().isEmpty()) {
            errs.immutable(
                    "spec.providerID",
                    newNode.spec() == null ? null : newNode.spec().providerID(),
                    oldNode.spec().providerID());
        }
    }
}
