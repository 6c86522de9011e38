package io.kplane.kubectl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Client-side apply's three-way patch, table-driven like kubectl's {@code TestCreateThreeWayMergePatch}
 * cases: each row is (last-applied, new manifest, live object) and the strategic merge patch kubectl
 * would send. JSON is written with single quotes for readability.
 */
class ThreeWayMergeTest {
    static Stream<Arguments> cases() {
        return Stream.of(
                row(
                        "unchanged manifest: no patch",
                        "{a:1, b:{c:'x'}}",
                        "{a:1, b:{c:'x'}}",
                        "{a:1, b:{c:'x'}, status:{s:1}}",
                        "{}"),
                row("a changed scalar is set", "{a:1}", "{a:2}", "{a:1}", "{a:2}"),
                row("a field added to the manifest is set", "{a:1}", "{a:1, b:2}", "{a:1}", "{b:2}"),
                row(
                        "a field removed from the manifest that was last applied is deleted",
                        "{a:1, b:2}",
                        "{a:1}",
                        "{a:1, b:2}",
                        "{b:null}"),
                row("a field set by someone else (not in last-applied) is kept", "{a:1}", "{a:1}", "{a:1, b:2}", "{}"),
                row(
                        "a removed field already gone from the live object needs no delete",
                        "{a:1, b:2}",
                        "{a:1}",
                        "{a:1}",
                        "{}"),
                row(
                        "no last-applied (first apply over a created object): nothing deleted",
                        null,
                        "{a:1}",
                        "{a:1, b:2}",
                        "{}"),
                row("live drift from the manifest is corrected", "{a:1}", "{a:1}", "{a:5}", "{a:1}"),
                row(
                        "nested maps diff field by field",
                        "{m:{labels:{x:'1', y:'2'}}}",
                        "{m:{labels:{x:'1', z:'3'}}}",
                        "{m:{labels:{x:'1', y:'2', other:'o'}}}",
                        "{m:{labels:{z:'3', y:null}}}"),
                row(
                        "a whole map removed from the manifest is deleted",
                        "{a:1, m:{k:'v'}}",
                        "{a:1}",
                        "{a:1, m:{k:'v'}}",
                        "{m:null}"),
                row(
                        "lists without a merge key are replaced whole",
                        "{args:['a','b']}",
                        "{args:['a','c']}",
                        "{args:['a','b']}",
                        "{args:['a','c']}"),
                row("equal lists without a merge key: no patch", "{args:['a']}", "{args:['a']}", "{args:['a']}", "{}"),
                row(
                        "containers merge by name: only the changed field of the changed element",
                        "{containers:[{name:'a', image:'i1'}, {name:'b', image:'i2'}]}",
                        "{containers:[{name:'a', image:'i1'}, {name:'b', image:'i3'}]}",
                        "{containers:[{name:'a', image:'i1', imagePullPolicy:'Always'}, {name:'b', image:'i2'}]}",
                        "{containers:[{name:'b', image:'i3'}]}"),
                row(
                        "an element added to a keyed list is sent whole",
                        "{env:[{name:'A', value:'1'}]}",
                        "{env:[{name:'A', value:'1'}, {name:'B', value:'2'}]}",
                        "{env:[{name:'A', value:'1'}]}",
                        "{env:[{name:'B', value:'2'}]}"),
                row(
                        "an element removed from the manifest is deleted with $patch: delete",
                        "{env:[{name:'A', value:'1'}, {name:'B', value:'2'}]}",
                        "{env:[{name:'A', value:'1'}]}",
                        "{env:[{name:'A', value:'1'}, {name:'B', value:'2'}]}",
                        "{env:[{name:'B', '$patch':'delete'}]}"),
                row(
                        "an element someone else added to a keyed list is kept",
                        "{env:[{name:'A', value:'1'}]}",
                        "{env:[{name:'A', value:'1'}]}",
                        "{env:[{name:'A', value:'1'}, {name:'INJECTED', value:'x'}]}",
                        "{}"),
                row(
                        "a field removed inside a keyed element is deleted",
                        "{containers:[{name:'a', image:'i', command:['x']}]}",
                        "{containers:[{name:'a', image:'i'}]}",
                        "{containers:[{name:'a', image:'i', command:['x']}]}",
                        "{containers:[{name:'a', command:null}]}"),
                row(
                        "volumeMounts merge by mountPath",
                        "{volumeMounts:[{mountPath:'/a', name:'v1'}]}",
                        "{volumeMounts:[{mountPath:'/a', name:'v2'}]}",
                        "{volumeMounts:[{mountPath:'/a', name:'v1'}]}",
                        "{volumeMounts:[{mountPath:'/a', name:'v2'}]}"),
                row(
                        "a keyed list whose elements lack the key is replaced whole",
                        "{env:[{value:'1'}]}",
                        "{env:[{value:'2'}]}",
                        "{env:[{value:'1'}]}",
                        "{env:[{value:'2'}]}"),
                row("an object replacing a scalar is sent whole", "{a:1}", "{a:{b:2}}", "{a:1}", "{a:{b:2}}"),
                row(
                        "a Job's backoffLimit change, with the server's defaults left alone",
                        "{apiVersion:'batch/v1', kind:'Job', metadata:{name:'pi'}, spec:{backoffLimit:4,"
                                + " template:{spec:{containers:[{name:'pi', image:'perl'}], restartPolicy:'Never'}}}}",
                        "{apiVersion:'batch/v1', kind:'Job', metadata:{name:'pi'}, spec:{backoffLimit:5,"
                                + " template:{spec:{containers:[{name:'pi', image:'perl'}], restartPolicy:'Never'}}}}",
                        "{apiVersion:'batch/v1', kind:'Job', metadata:{name:'pi', uid:'u', resourceVersion:'7'},"
                                + " spec:{backoffLimit:4, completions:1, parallelism:1, template:{spec:{containers:"
                                + "[{name:'pi', image:'perl', terminationMessagePath:'/dev/termination-log'}],"
                                + " restartPolicy:'Never'}}}, status:{active:1}}",
                        "{spec:{backoffLimit:5}}"));
    }

    private static Arguments row(String name, String original, String modified, String current, String patch) {
        return Arguments.of(name, original, modified, current, patch);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void threeWayPatch(String name, String original, String modified, String current, String expected) {
        JsonNode patch = ThreeWayMerge.patch(original == null ? null : json(original), json(modified), json(current));
        assertThat(patch).isEqualTo(json(expected));
    }

    private static JsonNode json(String relaxed) {
        try {
            return Json.mapper()
                    .reader()
                    .with(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
                    .with(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_SINGLE_QUOTES)
                    .readTree(relaxed);
        } catch (Exception e) {
            throw new IllegalArgumentException(relaxed, e);
        }
    }
}
