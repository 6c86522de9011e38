package io.kplane.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import java.util.Map;

/** Realistic bodies of every served resource, as kubectl, the controllers and the kubelet send them. */
final class SampleObjects {
    static final String META =
            """
            "metadata": {"name": "sample-x7k2p", "generateName": "sample-", "namespace": "default",
              "uid": "4b1e5c2a-9d8f-4e3b-a1c2-7f6e5d4c3b2a", "resourceVersion": "12345", "generation": 2,
              "creationTimestamp": "2025-03-01T10:00:00Z",
              "labels": {"app": "demo", "batch.kubernetes.io/job-name": "sample", "controller-uid": "4b1e"},
              "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\\"a\\":1}", "note": "x"},
              "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "sample",
                "uid": "0b1e5c2a-9d8f-4e3b-a1c2-7f6e5d4c3b2a", "controller": true, "blockOwnerDeletion": true}],
              "finalizers": ["batch.kubernetes.io/job-tracking"],
              "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
                "time": "2025-03-01T10:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {}}}]}""";

    static final String POD_SPEC =
            """
            {"restartPolicy": "Never", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
             "serviceAccountName": "default", "nodeName": "node-1", "schedulerName": "default-scheduler",
             "nodeSelector": {"kubernetes.io/os": "linux"},
             "securityContext": {"runAsUser": 1000, "fsGroup": 2000},
             "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
               "effect": "NoExecute", "tolerationSeconds": 300}],
             "volumes": [{"name": "data", "emptyDir": {}}],
             "overhead": {"cpu": "10m"},
             "initContainers": [{"name": "init", "image": "busybox:1.36", "command": ["sh", "-c", "true"]}],
             "containers": [{"name": "main", "image": "busybox:1.36", "imagePullPolicy": "IfNotPresent",
               "command": ["sh", "-c"], "args": ["echo hello; sleep 1"], "workingDir": "/work",
               "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
               "env": [{"name": "MODE", "value": "batch"},
                       {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
                       {"name": "CPU", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}}],
               "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}, "requests": {"cpu": "100m"}},
               "volumeMounts": [{"name": "data", "mountPath": "/data"}],
               "livenessProbe": {"exec": {"command": ["true"]}, "periodSeconds": 10},
               "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
               "stdin": false, "tty": false}]}""";

    static final String POD_STATUS =
            """
            {"phase": "Running", "hostIP": "10.0.0.4", "hostIPs": [{"ip": "10.0.0.4"}], "podIP": "10.244.0.7",
             "podIPs": [{"ip": "10.244.0.7"}], "startTime": "2025-03-01T10:00:01Z", "qosClass": "Burstable",
             "conditions": [
               {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2025-03-01T10:00:00Z"},
               {"type": "Initialized", "status": "True", "lastTransitionTime": "2025-03-01T10:00:02Z"},
               {"type": "ContainersReady", "status": "True", "lastTransitionTime": "2025-03-01T10:00:03Z"},
               {"type": "Ready", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2025-03-01T10:00:03Z"}],
             "initContainerStatuses": [{"name": "init", "ready": true, "restartCount": 0, "image": "busybox:1.36",
               "imageID": "docker.io/library/busybox@sha256:abc", "containerID": "containerd://111",
               "state": {"terminated": {"exitCode": 0, "reason": "Completed",
                 "startedAt": "2025-03-01T10:00:01Z", "finishedAt": "2025-03-01T10:00:02Z", "containerID": "containerd://111"}}}],
             "containerStatuses": [{"name": "main", "ready": true, "started": true, "restartCount": 1,
               "image": "busybox:1.36", "imageID": "docker.io/library/busybox@sha256:abc", "containerID": "containerd://222",
               "state": {"running": {"startedAt": "2025-03-01T10:00:03.123456Z"}},
               "lastState": {"terminated": {"exitCode": 137, "signal": 9, "reason": "OOMKilled", "message": "killed",
                 "startedAt": "2025-03-01T10:00:02Z", "finishedAt": "2025-03-01T10:00:03Z"}},
               "allocatedResources": {"cpu": "100m"}, "resources": {"requests": {"cpu": "100m"}}}]}""";

    static final String POD = """
            {"apiVersion": "v1", "kind": "Pod", %s, "spec": %s, "status": %s}"""
            .formatted(META, POD_SPEC, POD_STATUS);

    static final String JOB =
            """
            {"apiVersion": "batch/v1", "kind": "Job", %s,
             "spec": {"parallelism": 2, "completions": 5, "backoffLimit": 6, "activeDeadlineSeconds": 600,
               "completionMode": "Indexed", "backoffLimitPerIndex": 1, "maxFailedIndexes": 2, "suspend": false,
               "ttlSecondsAfterFinished": 100, "podReplacementPolicy": "TerminatingOrFailed", "manualSelector": false,
               "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "4b1e"},
                 "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}]},
               "podFailurePolicy": {"rules": [
                 {"action": "FailJob", "onExitCodes": {"containerName": "main", "operator": "In", "values": [42]}},
                 {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]},
               "successPolicy": {"rules": [{"succeededIndexes": "0-2", "succeededCount": 1}]},
               "template": {"metadata": {"labels": {"app": "demo"}, "annotations": {"a": "b"}}, "spec": %s}},
             "status": {"startTime": "2025-03-01T10:00:00Z", "active": 2, "succeeded": 1, "failed": 0, "ready": 2,
               "terminating": 0, "completedIndexes": "0", "failedIndexes": "",
               "uncountedTerminatedPods": {"succeeded": ["u1"], "failed": []},
               "conditions": [{"type": "SuccessCriteriaMet", "status": "False", "reason": "r", "message": "m",
                 "lastProbeTime": "2025-03-01T10:00:00Z", "lastTransitionTime": "2025-03-01T10:00:00Z"}]}}"""
                    .formatted(META, POD_SPEC);

    static final String CRONJOB =
            """
            {"apiVersion": "batch/v1", "kind": "CronJob", %s,
             "spec": {"schedule": "*/5 * * * *", "timeZone": "Etc/UTC", "startingDeadlineSeconds": 200,
               "concurrencyPolicy": "Forbid", "suspend": false, "successfulJobsHistoryLimit": 3,
               "failedJobsHistoryLimit": 1,
               "jobTemplate": {"metadata": {"labels": {"app": "demo"}},
                 "spec": {"backoffLimit": 2, "template": {"spec": %s}}}},
             "status": {"lastScheduleTime": "2025-03-01T10:00:00Z", "lastSuccessfulTime": "2025-03-01T09:55:00Z",
               "active": [{"apiVersion": "batch/v1", "kind": "Job", "name": "sample-2899", "namespace": "default",
                 "uid": "u", "resourceVersion": "9"}]}}"""
                    .formatted(META, POD_SPEC);

    static final String NAMESPACE =
            """
            {"apiVersion": "v1", "kind": "Namespace", %s, "spec": {"finalizers": ["kubernetes"]},
             "status": {"phase": "Active"}}"""
                    .formatted(META);

    static final String NODE =
            """
            {"apiVersion": "v1", "kind": "Node", %s,
             "spec": {"podCIDR": "10.244.0.0/24", "podCIDRs": ["10.244.0.0/24"], "unschedulable": false,
               "taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}], "providerID": "sim://node-1"},
             "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"},
               "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}, "phase": "Running",
               "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "ok",
                 "lastHeartbeatTime": "2025-03-01T10:00:00Z", "lastTransitionTime": "2025-03-01T09:00:00Z"}],
               "addresses": [{"type": "InternalIP", "address": "10.0.0.4"}, {"type": "Hostname", "address": "node-1"}],
               "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
               "nodeInfo": {"machineID": "m", "systemUUID": "s", "bootID": "b", "kernelVersion": "6.1",
                 "osImage": "Linux", "containerRuntimeVersion": "containerd://1.7", "kubeletVersion": "v1.32.0",
                 "kubeProxyVersion": "v1.32.0", "operatingSystem": "linux", "architecture": "amd64"},
               "images": [{"names": ["busybox:1.36"], "sizeBytes": 4000000}], "volumesInUse": []}}"""
                    .formatted(META);

    static final String EVENT =
            """
            {"apiVersion": "v1", "kind": "Event", %s,
             "involvedObject": {"kind": "Job", "namespace": "default", "name": "sample", "uid": "u",
               "apiVersion": "batch/v1", "resourceVersion": "7", "fieldPath": "spec"},
             "reason": "SuccessfulCreate", "message": "Created pod: sample-x7k2p",
             "source": {"component": "job-controller", "host": "h"},
             "firstTimestamp": "2025-03-01T10:00:00Z", "lastTimestamp": "2025-03-01T10:00:05Z", "count": 2,
             "type": "Normal", "eventTime": "2025-03-01T10:00:00.000001Z", "series": {"count": 2},
             "action": "Create", "reportingComponent": "job-controller", "reportingInstance": "jc-1"}"""
                    .formatted(META);

    static final String LEASE =
            """
            {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", %s,
             "spec": {"holderIdentity": "job-controller-1", "leaseDurationSeconds": 15,
               "acquireTime": "2025-03-01T10:00:00.000000Z", "renewTime": "2025-03-01T10:00:10.123456Z",
               "leaseTransitions": 3}}"""
                    .formatted(META);

    static final String CLOCK =
            """
            {"apiVersion": "kplane.io/v1", "kind": "Clock", %s,
             "spec": {"mode": "Rate", "time": "2026-12-01T00:00:00Z", "rate": 60},
             "status": {"mode": "Rate", "wallAnchor": "2026-11-23T10:00:00.000001Z",
               "clusterAnchor": "2026-12-01T00:00:00.000000Z", "rate": 60, "observedGeneration": 3}}"""
                    .formatted(META);

    static final String SYNCRECORD =
            """
            {"apiVersion": "lens.kplane.io/v1", "kind": "SyncRecord", %s,
             "target": {"apiVersion": "batch/v1", "kind": "Job", "resource": "jobs", "namespace": "default",
               "name": "pi", "uid": "u"},
             "component": "job-controller", "controller": "job",
             "records": [{"time": "2026-11-23T10:00:00.000001Z", "seq": 12, "component": "job-controller",
               "controller": "job", "rv": "120",
               "triggers": [{"type": "ADDED", "resource": "jobs", "key": "default/pi", "rv": "120",
                 "at": "2026-11-23T10:00:00Z"}], "triggersDropped": 1,
               "saw": {"active": 0, "expectations": "satisfied"}, "decision": "pods_created", "reason": "r",
               "writes": [{"verb": "create", "resource": "pods", "key": "default/pi-x", "rv": "121", "error": null}],
               "writesDropped": 0, "events": [{"type": "Normal", "reason": "SuccessfulCreate", "message": "m"}],
               "eventsDropped": 0, "durationMs": 3.1, "requeueAfterMs": 1000, "error": null}]}"""
                    .formatted(META);

    static final String CONFIGMAP =
            """
            {"apiVersion": "v1", "kind": "ConfigMap", %s, "data": {"run.sh": "echo hi"},
             "binaryData": {"blob": "AAEC"}, "immutable": false}"""
                    .formatted(META);

    static final String SECRET =
            """
            {"apiVersion": "v1", "kind": "Secret", %s, "type": "Opaque", "data": {"user": "YWRtaW4="},
             "stringData": {"password": "s3cret"}, "immutable": false}"""
                    .formatted(META);

    static final String SERVICEACCOUNT =
            """
            {"apiVersion": "v1", "kind": "ServiceAccount", %s, "secrets": [{"kind": "Secret", "name": "t"}],
             "imagePullSecrets": [{"name": "regcred"}], "automountServiceAccountToken": false}"""
                    .formatted(META);

    static final String PVC =
            """
            {"apiVersion": "v1", "kind": "PersistentVolumeClaim", %s,
             "spec": {"accessModes": ["ReadWriteOnce"], "selector": {"matchLabels": {"a": "b"}},
               "resources": {"requests": {"storage": "1Gi"}, "limits": {"storage": "2Gi"}}, "volumeName": "pv-1",
               "storageClassName": "local-path", "volumeMode": "Filesystem",
               "dataSource": {"kind": "PersistentVolumeClaim", "name": "src"}},
             "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"},
               "conditions": [{"type": "Resizing", "status": "True"}]}}"""
                    .formatted(META);

    static final String PV =
            """
            {"apiVersion": "v1", "kind": "PersistentVolume", %s,
             "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
               "claimRef": {"kind": "PersistentVolumeClaim", "namespace": "default", "name": "data", "uid": "u"},
               "persistentVolumeReclaimPolicy": "Delete", "storageClassName": "local-path", "mountOptions": ["ro"],
               "volumeMode": "Filesystem", "nodeAffinity": {"required": {"nodeSelectorTerms": []}},
               "hostPath": {"path": "/tmp/x", "type": "DirectoryOrCreate"}},
             "status": {"phase": "Bound", "message": "m", "reason": "r",
               "lastPhaseTransitionTime": "2025-03-01T10:00:00Z"}}"""
                    .formatted(META);

    static final String ROLE =
            """
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", %s,
             "rules": [{"apiGroups": [""], "resources": ["pods"], "resourceNames": ["p"], "verbs": ["get"]}]}"""
                    .formatted(META);

    static final String CLUSTERROLE =
            """
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", %s,
             "rules": [{"nonResourceURLs": ["/healthz"], "verbs": ["get"]}],
             "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"a": "b"}}]}}"""
                    .formatted(META);

    static final String ROLEBINDING =
            """
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", %s,
             "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "r"},
             "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": "default"}]}"""
                    .formatted(META);

    static final String CLUSTERROLEBINDING =
            """
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", %s,
             "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "r"},
             "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "jane"}]}"""
                    .formatted(META);

    static final Map<ResourceType, String> BY_TYPE = Map.ofEntries(
            Map.entry(ResourceTypes.PODS, POD),
            Map.entry(ResourceTypes.JOBS, JOB),
            Map.entry(ResourceTypes.CRONJOBS, CRONJOB),
            Map.entry(ResourceTypes.NAMESPACES, NAMESPACE),
            Map.entry(ResourceTypes.NODES, NODE),
            Map.entry(ResourceTypes.EVENTS, EVENT),
            Map.entry(ResourceTypes.LEASES, LEASE),
            Map.entry(ResourceTypes.CONFIGMAPS, CONFIGMAP),
            Map.entry(ResourceTypes.SECRETS, SECRET),
            Map.entry(ResourceTypes.SERVICEACCOUNTS, SERVICEACCOUNT),
            Map.entry(ResourceTypes.PERSISTENTVOLUMECLAIMS, PVC),
            Map.entry(ResourceTypes.PERSISTENTVOLUMES, PV),
            Map.entry(ResourceTypes.ROLES, ROLE),
            Map.entry(ResourceTypes.CLUSTERROLES, CLUSTERROLE),
            Map.entry(ResourceTypes.ROLEBINDINGS, ROLEBINDING),
            Map.entry(ResourceTypes.CLUSTERROLEBINDINGS, CLUSTERROLEBINDING),
            Map.entry(ResourceTypes.CLOCKS, CLOCK),
            Map.entry(ResourceTypes.SYNCRECORDS, SYNCRECORD));

    private SampleObjects() {}

    static ObjectNode of(ResourceType type) {
        return (ObjectNode) Json.tree(BY_TYPE.get(type));
    }
}
