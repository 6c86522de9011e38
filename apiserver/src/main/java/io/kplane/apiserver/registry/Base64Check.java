package io.kplane.apiserver.registry;

/**
 * Go's {@code base64.StdEncoding} strictness, reporting the offset Go's {@code CorruptInputError} would:
 * the first character outside the alphabet, a misplaced or missing {@code =}, trailing garbage, or the
 * start of a quantum cut short (as {@code base64.Encoding.decodeQuantum}).
 * Line breaks are skipped, as Go does.
 */
final class Base64Check {
    private Base64Check() {}

    /** -1 when {@code s} is valid standard base64, else the byte offset of the problem. */
    static int firstIllegalByte(String s) {
        int quantum = 0;
        int lastStart = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n') {
                continue;
            }
            if (c == '=') {
                // padding may only complete a quantum of 2 or 3 characters
                if (quantum < 2) {
                    return i;
                }
                int j = i + 1;
                if (quantum == 2) {
                    j = skipLineBreaks(s, j);
                    if (j == s.length()) {
                        return s.length(); // not enough padding
                    }
                    if (s.charAt(j) != '=') {
                        return j - 1;
                    }
                    j++;
                }
                j = skipLineBreaks(s, j);
                return j < s.length() ? j : -1; // anything after the padding is trailing garbage
            }
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/')) {
                return i;
            }
            if (quantum == 0) {
                lastStart = i;
            }
            quantum = (quantum + 1) % 4;
        }
        // a quantum cut short without padding: Go reports where it started
        return quantum == 0 ? -1 : lastStart;
    }

    private static int skipLineBreaks(String s, int from) {
        int j = from;
        while (j < s.length() && (s.charAt(j) == '\r' || s.charAt(j) == '\n')) {
            j++;
        }
        return j;
    }
}
