package io.kplane.apiserver.registry;

/**
 * Go's {@code base64.StdEncoding} strictness, reporting the offset Go's {@code CorruptInputError} would:
 * the first character outside the alphabet, a misplaced or missing {@code =}, or a truncated quantum.
 * Line breaks are skipped, as Go does.
 */
final class Base64Check {
    private Base64Check() {
    }

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
                // padding may only complete a quantum of 2 or 3 characters, and must end the input
                if (quantum < 2) {
                    return i;
                }
                int need = 4 - quantum;
                int j = i;
                int seen = 0;
                while (j < s.length() && seen < need) {
                    char p = s.charAt(j);
                    if (p == '=') {
                        seen++;
                    } else if (p != '\r' && p != '\n') {
                        return j;
                    }
                    j++;
                }
                if (seen < need) {
                    return s.length();
                }
                for (int k = j; k < s.length(); k++) {
                    if (s.charAt(k) != '\r' && s.charAt(k) != '\n') {
                        return k;
                    }
                }
                return -1;
            }
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/')) {
                return i;
            }
            if (quantum == 0) {
                lastStart = i;
            }
            quantum = (quantum + 1) % 4;
        }
        if (quantum == 0) {
            return -1;
        }
        return quantum == 1 ? lastStart : s.length();
    }
}
