package io.kplane.api.patch;

/**
 * A patch the server cannot use. {@link #code()} is the HTTP status to answer with: 400 for a
 * malformed patch document, 422 for a well-formed patch that cannot be applied to the object.
 */
public class PatchException extends RuntimeException {
    private final int code;

    public PatchException(int code, String message) {
        super(message);
        this.code = code;
    }

    public PatchException(int code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public int code() {
        return code;
    }

    static PatchException badRequest(String message) {
        return new PatchException(400, message);
    }

    static PatchException unprocessable(String message) {
        return new PatchException(422, message);
    }
}
