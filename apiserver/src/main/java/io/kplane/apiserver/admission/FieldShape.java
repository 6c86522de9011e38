package io.kplane.apiserver.admission;

import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import java.util.Map;
import java.util.Set;

/**
 * What the model's Jackson decoder accepts at one place of an object: a record with its known
 * properties, a list or map of something, or a scalar leaf. Built once per model type by
 * {@link FieldShapes} and immutable once published.
 */
final class FieldShape {
    enum Kind {
        /** Any JSON ({@code JsonNode}, {@code Object}): nothing inside is unknown. */
        ANY,
        STRING,
        INT,
        LONG,
        DOUBLE,
        BOOLEAN,
        /** An {@code Instant} read by {@code Json}'s RFC 3339 deserializer. */
        INSTANT,
        /** Another scalar (enum, {@code Float}, ...): a non-null value is checked by the decoder. */
        SCALAR,
        LIST,
        MAP,
        BEAN,
        /** Something the walk does not model (custom or polymorphic deserializer): the decoder decides. */
        OPAQUE
    }

    static final FieldShape ANY = new FieldShape(Kind.ANY, false);
    static final FieldShape STRING = new FieldShape(Kind.STRING, false);
    static final FieldShape INT = new FieldShape(Kind.INT, false);
    static final FieldShape LONG = new FieldShape(Kind.LONG, false);
    static final FieldShape DOUBLE = new FieldShape(Kind.DOUBLE, false);
    static final FieldShape BOOLEAN = new FieldShape(Kind.BOOLEAN, false);
    static final FieldShape INSTANT = new FieldShape(Kind.INSTANT, false);
    static final FieldShape SCALAR = new FieldShape(Kind.SCALAR, false);
    static final FieldShape OPAQUE = new FieldShape(Kind.OPAQUE, false);

    final Kind kind;
    /** A JSON null here may be rejected (primitive, {@code Nulls.FAIL}): let the decoder check it. */
    final boolean nullChecked;

    /** LIST and MAP: the shape of the elements or values. */
    FieldShape element;

    /** BEAN: the decoder, whose {@code findProperty} resolves names exactly as decoding does. */
    BeanDeserializerBase deserializer;
    /** BEAN: shape of each property by its primary name. */
    Map<String, FieldShape> properties;
    /** BEAN: names the decoder skips silently ({@code @JsonIgnore}, {@code @JsonIgnoreProperties}). */
    Set<String> ignored;
    /** BEAN: every name is accepted (any-setter or {@code ignoreUnknown}). */
    boolean anyName;

    FieldShape(Kind kind, boolean nullChecked) {
        this.kind = kind;
        this.nullChecked = nullChecked;
    }

    /**
     * The same shape where a null must be checked by the decoder. A record may still be under
     * construction (recursive types), so it is left to the decoder altogether.
     */
    FieldShape nullChecked() {
        if (nullChecked || kind == Kind.OPAQUE) {
            return this;
        }
        if (kind == Kind.BEAN) {
            return OPAQUE;
        }
        FieldShape copy = new FieldShape(kind, true);
        copy.element = element;
        return copy;
    }
}
