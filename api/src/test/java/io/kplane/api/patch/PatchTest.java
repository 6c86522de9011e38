package io.kplane.api.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.api.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cases modelled on Kubernetes' strategic merge patch tests, written as original | patch | expected. */
class PatchTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "containers merge by name | {'spec':{'containers':[{'name':'a','image':'x'},{'name':'b','image':'y'}]}} | {'spec':{'containers':[{'name':'b','image':'z'}]}} | {'spec':{'containers':[{'name':'a','image':'x'},{'name':'b','image':'z'}]}}",
                "new container appended | {'spec':{'containers':[{'name':'a','image':'x'}]}} | {'spec':{'containers':[{'name':'c','image':'w'}]}} | {'spec':{'containers':[{'name':'a','image':'x'},{'name':'c','image':'w'}]}}",
                "delete container by directive | {'spec':{'containers':[{'name':'a'},{'name':'b'}]}} | {'spec':{'containers':[{'name':'a','$patch':'delete'}]}} | {'spec':{'containers':[{'name':'b'}]}}",
                "env merges by name inside a container | {'spec':{'containers':[{'name':'a','env':[{'name':'X','value':'1'},{'name':'Y','value':'2'}]}]}} | {'spec':{'containers':[{'name':'a','env':[{'name':'Y','value':'3'}]}]}} | {'spec':{'containers':[{'name':'a','env':[{'name':'X','value':'1'},{'name':'Y','value':'3'}]}]}}",
                "ports merge by containerPort | {'ports':[{'containerPort':80,'name':'http'}]} | {'ports':[{'containerPort':80,'protocol':'TCP'},{'containerPort':443}]} | {'ports':[{'containerPort':80,'name':'http','protocol':'TCP'},{'containerPort':443}]}",
                "volumeMounts merge by mountPath | {'volumeMounts':[{'name':'a','mountPath':'/a'}]} | {'volumeMounts':[{'name':'b','mountPath':'/a'}]} | {'volumeMounts':[{'name':'b','mountPath':'/a'}]}",
                "conditions merge by type | {'status':{'conditions':[{'type':'Ready','status':'False'},{'type':'Complete','status':'False'}]}} | {'status':{'conditions':[{'type':'Ready','status':'True'}]}} | {'status':{'conditions':[{'type':'Ready','status':'True'},{'type':'Complete','status':'False'}]}}",
                "ownerReferences merge by uid | {'metadata':{'ownerReferences':[{'uid':'1','name':'a'}]}} | {'metadata':{'ownerReferences':[{'uid':'2','name':'b'}]}} | {'metadata':{'ownerReferences':[{'uid':'1','name':'a'},{'uid':'2','name':'b'}]}}",
                "finalizers merge as a set | {'metadata':{'finalizers':['a','b']}} | {'metadata':{'finalizers':['b','c']}} | {'metadata':{'finalizers':['a','b','c']}}",
                "deleteFromPrimitiveList | {'metadata':{'finalizers':['a','b','c']}} | {'metadata':{'$deleteFromPrimitiveList/finalizers':['b']}} | {'metadata':{'finalizers':['a','c']}}",
                "tolerations are replaced | {'spec':{'tolerations':[{'key':'a'}]}} | {'spec':{'tolerations':[{'key':'b'}]}} | {'spec':{'tolerations':[{'key':'b'}]}}",
                "args are replaced | {'args':['a','b']} | {'args':['c']} | {'args':['c']}",
                "null deletes a key | {'metadata':{'labels':{'a':'1','b':'2'}}} | {'metadata':{'labels':{'a':null}}} | {'metadata':{'labels':{'b':'2'}}}",
                "map replace directive | {'spec':{'nodeSelector':{'a':'1','b':'2'}}} | {'spec':{'nodeSelector':{'$patch':'replace','c':'3'}}} | {'spec':{'nodeSelector':{'c':'3'}}}",
                "map delete directive | {'spec':{'affinity':{'x':1},'b':2}} | {'spec':{'affinity':{'$patch':'delete'}}} | {'spec':{'b':2}}",
                "list replace directive | {'spec':{'containers':[{'name':'a'},{'name':'b'}]}} | {'spec':{'containers':[{'$patch':'replace'},{'name':'c'}]}} | {'spec':{'containers':[{'name':'c'}]}}",
                "setElementOrder reorders | {'spec':{'containers':[{'name':'a'},{'name':'b'}]}} | {'spec':{'$setElementOrder/containers':[{'name':'b'},{'name':'a'},{'name':'c'}],'containers':[{'name':'c'}]}} | {'spec':{'containers':[{'name':'b'},{'name':'a'},{'name':'c'}]}}",
                "retainKeys drops other keys | {'spec':{'strategy':{'type':'A','rollingUpdate':{'x':1}}}} | {'spec':{'strategy':{'$retainKeys':['type'],'type':'B'}}} | {'spec':{'strategy':{'type':'B'}}}",
                "namespace spec finalizers are replaced | {'spec':{'finalizers':['kubernetes','x']}} | {'spec':{'finalizers':['y']}} | {'spec':{'finalizers':['y']}}",
                "patch into missing list | {} | {'spec':{'containers':[{'name':'a'}]}} | {'spec':{'containers':[{'name':'a'}]}}",
            })
    void strategicMergePatch(String name, String original, String patch, String expected) {
        assertThat(StrategicMergePatch.apply(json(original), json(patch))).isEqualTo(json(expected));
    }

    @Test
    void strategicMergePatchErrors() {
        assertThatThrownBy(() -> StrategicMergePatch.apply(json("{}"), json("[1]")))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(400));
        assertThatThrownBy(() -> StrategicMergePatch.apply(
                        json("{'spec':{'containers':[]}}"), json("{'spec':{'containers':[{'image':'x'}]}}")))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(422);
                    assertThat(e.getMessage()).contains("does not contain declared merge key: name");
                });
        assertThatThrownBy(() -> StrategicMergePatch.apply(json("{}"), json("{'a':{'$patch':'explode'}}")))
                .hasMessageContaining("Unknown patch type: explode");
    }

    @Test
    void strategicMergePatchDoesNotModifyItsInput() {
        var original = json("{'metadata':{'labels':{'a':'1'}}}");
        StrategicMergePatch.apply(original, json("{'metadata':{'labels':{'a':'2'}}}"));
        assertThat(original).isEqualTo(json("{'metadata':{'labels':{'a':'1'}}}"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{'a':'b'} | {'a':'c'} | {'a':'c'}",
                "{'a':'b'} | {'b':'c'} | {'a':'b','b':'c'}",
                "{'a':'b'} | {'a':null} | {}",
                "{'a':['b']} | {'a':'c'} | {'a':'c'}",
                "{'a':{'b':'c'}} | {'a':{'b':'d','c':null}} | {'a':{'b':'d'}}",
                "{'a':[{'b':'c'}]} | {'a':[1]} | {'a':[1]}",
                "{'e':null} | {'a':1} | {'e':null,'a':1}",
            })
    void jsonMergePatchRfc7386(String original, String patch, String expected) {
        assertThat(JsonMergePatch.apply(json(original), json(patch))).isEqualTo(json(expected));
    }

    @Test
    void jsonPatch() {
        var doc = json("{'metadata':{'labels':{'a':'1'}},'spec':{'parallelism':1}}");
        var patched = JsonPatch.apply(
                doc,
                json(
                        "[{'op':'replace','path':'/spec/parallelism','value':3},"
                                + "{'op':'add','path':'/metadata/labels/b','value':'2'},{'op':'remove','path':'/metadata/labels/a'}]"));
        assertThat(patched).isEqualTo(json("{'metadata':{'labels':{'b':'2'}},'spec':{'parallelism':3}}"));
        assertThatThrownBy(() -> JsonPatch.apply(doc, json("[{'op':'test','path':'/spec/parallelism','value':2}]")))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(422));
        assertThatThrownBy(() -> JsonPatch.apply(doc, json("[{'op':'remove','path':'/nope'}]")))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(422));
        assertThatThrownBy(() -> JsonPatch.apply(doc, json("[{'op':'bogus','path':'/a'}]")))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(400));
        assertThatThrownBy(() -> JsonPatch.apply(doc, json("{}")))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(400));
    }

    private static com.fasterxml.jackson.databind.JsonNode json(String singleQuoted) {
        return Json.tree(singleQuoted.replace('\'', '"'));
    }
}
