package io.kplane.api.selector;

/** A label or field selector the server cannot accept: the API server answers 400 Bad Request with the message. */
public class SelectorException extends IllegalArgumentException {
    public SelectorException(String message) {
        super(message);
    }
}
