package io.kplane.api.selector;

import java.util.ArrayList;
import java.util.List;

/** A recursive-descent parser for the label selector string form, following Kubernetes' lexer. */
final class LabelSelectorParser {
    private enum Tok {
        IDENT,
        EQ,
        DEQ,
        NEQ,
        IN,
        NOTIN,
        BANG,
        GT,
        LT,
        OPEN,
        CLOSE,
        COMMA,
        END
    }

    private record Token(Tok type, String text) {}

    private final String input;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;

    LabelSelectorParser(String input) {
        this.input = input;
        lex();
    }

    private void lex() {
        int i = 0;
        while (i < input.length()) {
            char c = input.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '=') {
                if (i + 1 < input.length() && input.charAt(i + 1) == '=') {
                    tokens.add(new Token(Tok.DEQ, "=="));
                    i += 2;
                } else {
                    tokens.add(new Token(Tok.EQ, "="));
                    i++;
                }
            } else if (c == '!') {
                if (i + 1 < input.length() && input.charAt(i + 1) == '=') {
                    tokens.add(new Token(Tok.NEQ, "!="));
                    i += 2;
                } else {
                    tokens.add(new Token(Tok.BANG, "!"));
                    i++;
                }
            } else if (c == '>' || c == '<' || c == '(' || c == ')' || c == ',') {
                tokens.add(new Token(
                        switch (c) {
                            case '>' -> Tok.GT;
                            case '<' -> Tok.LT;
                            case '(' -> Tok.OPEN;
                            case ')' -> Tok.CLOSE;
                            default -> Tok.COMMA;
                        },
                        String.valueOf(c)));
                i++;
            } else {
                int start = i;
                while (i < input.length() && !isSpecial(input.charAt(i))) {
                    i++;
                }
                String word = input.substring(start, i);
                tokens.add(new Token(
                        switch (word) {
                            case "in" -> Tok.IN;
                            case "notin" -> Tok.NOTIN;
                            default -> Tok.IDENT;
                        },
                        word));
            }
        }
        tokens.add(new Token(Tok.END, ""));
    }

    private static boolean isSpecial(char c) {
        return Character.isWhitespace(c) || "=!<>(),".indexOf(c) >= 0;
    }

    List<LabelRequirement> parse() {
        List<LabelRequirement> reqs = new ArrayList<>();
        while (true) {
            reqs.add(requirement());
            Token t = next();
            if (t.type() == Tok.END) {
                return reqs;
            }
            if (t.type() != Tok.COMMA) {
                throw error("found '" + t.text() + "', expected: ',' or 'end of string'");
            }
            if (peek().type() == Tok.END) {
                throw error("found '', expected: identifier after ','");
            }
        }
    }

    private LabelRequirement requirement() {
        Token t = next();
        if (t.type() == Tok.BANG) {
            Token key = next();
            if (key.type() != Tok.IDENT) {
                throw error("found '" + key.text() + "', expected: identifier after '!'");
            }
            return LabelRequirement.of(key.text(), LabelRequirement.Operator.DOES_NOT_EXIST, List.of());
        }
        if (t.type() != Tok.IDENT) {
            throw error("found '" + t.text() + "', expected: !, identifier, or 'end of string'");
        }
        String key = t.text();
        Tok op = peek().type();
        if (op == Tok.COMMA || op == Tok.END) {
            return LabelRequirement.of(key, LabelRequirement.Operator.EXISTS, List.of());
        }
        next();
        return switch (op) {
            case EQ -> LabelRequirement.of(key, LabelRequirement.Operator.EQUALS, List.of(exactValue()));
            case DEQ -> LabelRequirement.of(key, LabelRequirement.Operator.DOUBLE_EQUALS, List.of(exactValue()));
            case NEQ -> LabelRequirement.of(key, LabelRequirement.Operator.NOT_EQUALS, List.of(exactValue()));
            case GT -> LabelRequirement.of(key, LabelRequirement.Operator.GREATER_THAN, List.of(exactValue()));
            case LT -> LabelRequirement.of(key, LabelRequirement.Operator.LESS_THAN, List.of(exactValue()));
            case IN -> LabelRequirement.of(key, LabelRequirement.Operator.IN, valueSet());
            case NOTIN -> LabelRequirement.of(key, LabelRequirement.Operator.NOT_IN, valueSet());
            default -> throw error(
                    "found '" + tokens.get(pos - 1).text() + "', expected: in, notin, =, ==, !=, gt, lt");
        };
    }

    /** The value after =, == or !=; it may be empty ({@code a=}). */
    private String exactValue() {
        Token t = peek();
        if (t.type() == Tok.COMMA || t.type() == Tok.END) {
            return "";
        }
        if (t.type() != Tok.IDENT && t.type() != Tok.IN && t.type() != Tok.NOTIN) {
            throw error("found '" + t.text() + "', expected: identifier");
        }
        next();
        return t.text();
    }

    private List<String> valueSet() {
        Token open = next();
        if (open.type() != Tok.OPEN) {
            throw error("found '" + open.text() + "', expected: '('");
        }
        List<String> values = new ArrayList<>();
        while (true) {
            Token t = next();
            if (t.type() == Tok.IDENT || t.type() == Tok.IN || t.type() == Tok.NOTIN) {
                values.add(t.text());
                Token sep = next();
                if (sep.type() == Tok.CLOSE) {
                    return values;
                }
                if (sep.type() != Tok.COMMA) {
                    throw error("found '" + sep.text() + "', expected: ',' or ')'");
                }
            } else if (t.type() == Tok.CLOSE && values.isEmpty()) {
                return values;
            } else if (t.type() == Tok.COMMA) {
                values.add("");
            } else {
                throw error("found '" + t.text() + "', expected: ',', ')' or identifier");
            }
        }
    }

    private Token next() {
        return tokens.get(pos < tokens.size() - 1 ? pos++ : pos);
    }

    private Token peek() {
        return tokens.get(pos);
    }

    private SelectorException error(String detail) {
        return new SelectorException("unable to parse requirement: " + detail + " (in selector \"" + input + "\")");
    }
}
