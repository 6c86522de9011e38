package io.kplane.launcher.cds;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classes the archive's dump must be able to load besides the listed ones: every class a listed
 * class's constant pool names (its own references, the descriptors of its fields, methods, call sites
 * and lambdas), and the superclasses and interfaces of every class in the set.
 *
 * <p>Why: the dump verifies each listed class and resolves its lambda call sites, and both load the
 * classes the code names (verification to check assignments, a call site to build its method type).
 * When the shared-classes jar held the loaded classes only, a class the training never loaded (a type
 * named in a signature, e.g. Micrometer's {@code MicrometerCollector$Family}, Vert.x's
 * {@code TrafficShapingOptions}) was missing: the dump left 83 listed classes out ("failed
 * verification": loaded and verified from the jar at every start) and 60 call sites unresolved (their
 * lambda spun at every start). One level of references is what verification and call-site resolution
 * load; their supertypes are what loading them needs (docs/performance.md, "Start-up CPU per
 * component", 2026-11-27, the archive's unresolved classes).
 *
 * <p>The class files are read here, not with a class-file library: only the constant pool's class
 * names and descriptors and the supertypes are needed (the format's stable head, unchanged since Java
 * 11's dynamic constants), and the launcher, whose jar every {@code up} loads, carries no bytecode
 * library for that one walk.
 */
final class ReferencedClasses {
    /** {@code Lname;} in a descriptor or signature. */
    private static final Pattern OBJECT_TYPE = Pattern.compile("L([^;<>\\[()]+)[;<]");

    private ReferencedClasses() {}

    /**
     * {@code listed}, the classes their constant pools name, and the supertypes of all of them, as far as
     * {@code available} (class name to class file) carries them.
     */
    static Set<String> closure(Set<String> listed, Map<String, byte[]> available) {
        Set<String> closure = new LinkedHashSet<>();
        Deque<String> supertypesToVisit = new ArrayDeque<>();
        for (String name : listed) {
            byte[] bytes = available.get(name);
            if (bytes == null) {
                continue;
            }
            closure.add(name);
            supertypesToVisit.add(name);
            for (String referenced : parse(bytes).referenced()) {
                if (available.containsKey(referenced) && closure.add(referenced)) {
                    supertypesToVisit.add(referenced);
                }
            }
        }
        while (!supertypesToVisit.isEmpty()) {
            for (String supertype :
                    parse(available.get(supertypesToVisit.poll())).supertypes()) {
                if (available.containsKey(supertype) && closure.add(supertype)) {
                    supertypesToVisit.add(supertype);
                }
            }
        }
        return closure;
    }

    /** What one class file names: every class its constant pool mentions, and its direct supertypes. */
    record ClassRefs(Set<String> referenced, Set<String> supertypes) {}

    static ClassRefs parse(byte[] classFile) {
        if (classFile.length < 10 || (classFile[0] & 0xff) != 0xCA || (classFile[1] & 0xff) != 0xFE) {
            // not a class file (a resource named .class): it names nothing the dump could need
            return new ClassRefs(Set.of(), Set.of());
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
            in.skipBytes(8); // magic, minor and major version
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            int[] classNameIndex = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 7 -> classNameIndex[i] = in.readUnsignedShort();
                    case 8, 16, 19, 20 -> in.skipBytes(2);
                    case 15 -> in.skipBytes(3);
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                    case 5, 6 -> {
                        in.skipBytes(8);
                        i++; // a long or double takes two entries
                    }
                    default -> throw new IOException("unknown constant pool tag " + tag);
                }
            }
            Set<String> referenced = new LinkedHashSet<>();
            for (int i = 1; i < count; i++) {
                if (classNameIndex[i] != 0) {
                    String name = utf8[classNameIndex[i]];
                    if (name.startsWith("[")) {
                        addObjectTypes(name, referenced);
                    } else {
                        referenced.add(name);
                    }
                } else if (utf8[i] != null && utf8[i].indexOf(';') > 0) {
                    addObjectTypes(utf8[i], referenced);
                }
            }
            in.skipBytes(2); // access flags
            in.skipBytes(2); // this class
            Set<String> supertypes = new LinkedHashSet<>();
            int superClass = in.readUnsignedShort();
            if (superClass != 0) {
                supertypes.add(utf8[classNameIndex[superClass]]);
            }
            int interfaces = in.readUnsignedShort();
            for (int i = 0; i < interfaces; i++) {
                supertypes.add(utf8[classNameIndex[in.readUnsignedShort()]]);
            }
            return new ClassRefs(referenced, supertypes);
        } catch (IOException e) {
            throw new UncheckedIOException("not a class file", e);
        }
    }

    private static void addObjectTypes(String descriptor, Set<String> into) {
        Matcher m = OBJECT_TYPE.matcher(descriptor);
        while (m.find()) {
            into.add(m.group(1));
        }
    }
}
