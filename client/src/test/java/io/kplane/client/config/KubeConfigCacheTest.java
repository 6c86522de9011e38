package io.kplane.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClientException;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubeconfig tree cache is believed only while it holds the file's exact bytes. */
class KubeConfigCacheTest {
    @TempDir
    Path dir;

    private static final String CONFIG =
            """
            apiVersion: v1
            kind: Config
            clusters:
            - name: c
              cluster:
                server: http://127.0.0.1:%d
                insecure-skip-tls-verify: "true"
            users:
            - name: u
              user:
                token: %s
            contexts:
            - name: x
              context: {cluster: c, user: u, namespace: %s}
            current-context: x
            preferences: {colors: true, depth: 3}
            """;

    private Path cacheDir() {
        return dir.resolve("home/.kube/cache/kubectl-lite");
    }

    private Path write(String name, int port, String token, String namespace) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, CONFIG.formatted(port, token, namespace));
        return file;
    }

    private List<Path> entries() throws Exception {
        if (!Files.isDirectory(cacheDir())) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(cacheDir())) {
            return files.toList();
        }
    }

    @Test
    void aCachedReadGivesWhatAParseGivesAndTheEntryIsTheOwnersAlone() throws Exception {
        Path file = write("config", 6443, "s3cret", "team");
        KubeConfigCache cache = KubeConfigCache.underHome(dir.resolve("home"));

        KubeConfig parsed = KubeConfig.load(file);
        KubeConfig first = KubeConfig.load(file, cache); // parses and fills the cache
        assertThat(entries()).hasSize(1);
        Path entry = entries().get(0);
        assertThat(Files.readString(entry)).contains("\"version\":1").contains("s3cret");
        KubeConfig second = KubeConfig.load(file, cache); // reads the entry

        assertThat(first).isEqualTo(parsed);
        assertThat(second).isEqualTo(parsed);
        assertThat(second.preferences()).isEqualTo(parsed.preferences());
        assertThat(second.toClientConfig()).isEqualTo(parsed.toClientConfig());
        assertThat(second.toClientConfig().insecureSkipTlsVerify()).isTrue();
        // a kubeconfig holds credentials: so does its entry
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(entry)))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheDir())))
                .isEqualTo("rwx------");
    }

    @Test
    void theEntryIsReadNotTheYamlWhileTheContentIsUnchanged() throws Exception {
        Path file = write("config", 6443, "s3cret", "team");
        KubeConfigCache cache = KubeConfigCache.in(cacheDir());
        KubeConfig.load(file, cache);
        Path entry = entries().get(0);
        // proof that a hit uses the entry: change the cached server, keep path and source
        Files.writeString(entry, Files.readString(entry).replace("127.0.0.1:6443", "127.0.0.1:7777"));

        assertThat(KubeConfig.load(file, cache).toClientConfig().server()).isEqualTo("http://127.0.0.1:7777");
    }

    @Test
    void anEditWithTheSameSizeAndModificationTimeIsParsedAgain() throws Exception {
        Path file = write("config", 6443, "aaaaaa", "team");
        KubeConfigCache cache = KubeConfigCache.in(cacheDir());
        assertThat(KubeConfig.load(file, cache).toClientConfig().token()).isEqualTo("aaaaaa");
        FileTime mtime = Files.getLastModifiedTime(file);
        long size = Files.size(file);

        write("config", 6443, "bbbbbb", "team");
        Files.setLastModifiedTime(file, mtime);
        assertThat(Files.size(file)).isEqualTo(size);

        ClientConfig config = KubeConfig.load(file, cache).toClientConfig();
        assertThat(config.token()).isEqualTo("bbbbbb");
        // the entry now holds the new content
        assertThat(KubeConfig.load(file, cache).toClientConfig().token()).isEqualTo("bbbbbb");
        assertThat(Files.readString(entries().get(0))).contains("bbbbbb").doesNotContain("aaaaaa");
    }

    @Test
    void aCorruptTruncatedOrForeignEntryIsIgnoredAndReplaced() throws Exception {
        Path file = write("config", 6443, "s3cret", "team");
        KubeConfigCache cache = KubeConfigCache.in(cacheDir());
        KubeConfig.load(file, cache);
        Path entry = entries().get(0);
        String good = Files.readString(entry);

        for (String bad : List.of(
                "{not json",
                good.substring(0, good.length() / 2),
                "",
                "[]",
                good.replace("\"version\":1", "\"version\":2").replace("127.0.0.1:6443", "127.0.0.1:7777"),
                good.replace("\"path\":\"", "\"path\":\"/elsewhere").replace("127.0.0.1:6443", "127.0.0.1:7777"),
                good.replace("\"tree\":{", "\"tree\":[{").replace("}}", "}]}"))) {
            Files.writeString(entry, bad);
            assertThat(KubeConfig.load(file, cache).toClientConfig().server())
                    .as(bad)
                    .isEqualTo("http://127.0.0.1:6443");
            assertThat(Files.readString(entry)).as("rewritten after %s", bad).isEqualTo(good);
        }
    }

    @Test
    void aCacheThatCannotBeWrittenCostsAParseAndNothingElse() throws Exception {
        Path file = write("config", 6443, "s3cret", "team");
        Path notADir = dir.resolve("plain-file");
        Files.writeString(notADir, "x");

        KubeConfigCache cache = KubeConfigCache.in(notADir.resolve("cache"));
        assertThat(KubeConfig.load(file, cache)).isEqualTo(KubeConfig.load(file));
        assertThat(KubeConfig.load(file, cache)).isEqualTo(KubeConfig.load(file));
        assertThat(KubeConfigCache.underHome(null)).isSameAs(KubeConfigCache.NONE);
    }

    @Test
    void yamlErrorsAndEmptyFilesReadAsWithoutACacheAndLeaveNoEntry() throws Exception {
        KubeConfigCache cache = KubeConfigCache.in(cacheDir());
        Path empty = dir.resolve("empty");
        Files.writeString(empty, "");
        assertThatThrownBy(() -> KubeConfig.load(empty, cache))
                .isInstanceOf(KubeClientException.class)
                .hasMessageContaining("is empty");
        Path broken = dir.resolve("broken");
        Files.writeString(broken, "clusters: [unclosed\n");
        assertThatThrownBy(() -> KubeConfig.load(broken, cache))
                .isInstanceOf(KubeClientException.class)
                .hasMessageContaining("cannot read kubeconfig " + broken);
        Path wrongShape = dir.resolve("wrong-shape");
        Files.writeString(wrongShape, "clusters: {a: b}\n");
        assertThatThrownBy(() -> KubeConfig.load(wrongShape, cache))
                .hasMessageContaining("clusters: expected a list, got a map");
        // the tree is cached, the mapping's error is the same from the entry
        assertThatThrownBy(() -> KubeConfig.load(wrongShape, cache))
                .hasMessageContaining("clusters: expected a list, got a map");
        assertThat(entries()).hasSize(1);
    }

    @Test
    void twoFilesKeepTwoEntriesAndTheResolversMergeRulesHoldWithTheCache() throws Exception {
        Path a = write("a", 1111, "ta", "na");
        Path b = dir.resolve("b");
        Files.writeString(
                b,
                CONFIG.formatted(2222, "tb", "nb").replace("name: x", "name: y").replace("current-context: x", ""),
                StandardCharsets.UTF_8);
        String env = a + File.pathSeparator + b;
        KubeconfigResolver plain = new KubeconfigResolver(env, dir.resolve("home"), List.of());
        KubeconfigResolver cached = plain.withCache(KubeConfigCache.underHome(dir.resolve("home")));

        for (int i = 0; i < 2; i++) { // fills, then reads the entries
            assertThat(cached.load(null)).isEqualTo(plain.load(null));
            assertThat(cached.resolve(null, null, null)).isEqualTo(plain.resolve(null, null, null));
            assertThat(cached.resolve("http://10.0.0.1:1", "tok", b.toString()))
                    .isEqualTo(plain.resolve("http://10.0.0.1:1", "tok", b.toString()));
        }
        assertThat(cached.resolve(null, null, null).server()).isEqualTo("http://127.0.0.1:1111");
        assertThat(entries()).hasSize(2);
    }

    private Path entryOf(Path kubeconfig) {
        String path = kubeconfig.toAbsolutePath().normalize().toString();
        return cacheDir().resolve("kubeconfig-" + Integer.toHexString(path.hashCode()) + ".json");
    }

    @Test
    void writingAnEntryDeletesTheEntriesOfKubeconfigsThatAreGoneAndUnreadableOnes() throws Exception {
        KubeConfigCache cache = KubeConfigCache.in(cacheDir());
        Path a = write("a", 1111, "ta", "na");
        Path b = write("b", 2222, "tb", "nb");
        KubeConfig.load(a, cache);
        KubeConfig.load(b, cache);
        Path foreign = cacheDir().resolve("kubeconfig-0.json");
        Files.writeString(foreign, "{not json");
        Files.delete(a); // a stack's or a test's folder removed with its kubeconfig

        KubeConfig.load(b, cache); // a hit: nothing is written, nothing pruned
        assertThat(entries()).containsExactlyInAnyOrder(entryOf(a), entryOf(b), foreign);

        Path c = write("c", 3333, "tc", "nc");
        KubeConfig.load(c, cache); // a miss writes an entry and prunes
        assertThat(entries()).containsExactlyInAnyOrder(entryOf(b), entryOf(c));
        assertThat(KubeConfig.load(b, cache).toClientConfig().server()).isEqualTo("http://127.0.0.1:2222");
    }

    @Test
    void onlyTheEntriesWrittenLastAreKept() throws Exception {
        KubeConfigCache cache = KubeConfigCache.in(cacheDir());
        int files = KubeConfigCache.MAX_ENTRIES + 3;
        List<Path> configs = new java.util.ArrayList<>();
        long base = System.currentTimeMillis() - 1_000_000;
        for (int i = 0; i < files; i++) {
            Path config = write("config-" + i, 1000 + i, "t" + i, "n" + i);
            configs.add(config);
            KubeConfig.load(config, cache);
            // written in this order: the file times say so whatever the clock's granularity
            Files.setLastModifiedTime(entryOf(config), FileTime.fromMillis(base + i * 1000L));
        }
        assertThat(entries()).hasSize(KubeConfigCache.MAX_ENTRIES);
        assertThat(entries())
                .doesNotContain(entryOf(configs.get(0)), entryOf(configs.get(1)), entryOf(configs.get(2)))
                .contains(entryOf(configs.get(3)), entryOf(configs.get(files - 1)));

        // a pruned kubeconfig is parsed again, and its entry is the newest
        assertThat(KubeConfig.load(configs.get(0), cache).toClientConfig().server())
                .isEqualTo("http://127.0.0.1:1000");
        assertThat(entries()).hasSize(KubeConfigCache.MAX_ENTRIES).contains(entryOf(configs.get(0)));
        assertThat(entries()).doesNotContain(entryOf(configs.get(3)));
    }

    @Test
    void aKilledRunsTemporaryFileGoesOnceItIsOldAnotherRunsFreshOneStays() throws Exception {
        KubeConfigCache cache = KubeConfigCache.in(cacheDir());
        KubeConfig.load(write("a", 1111, "ta", "na"), cache);
        Path stale = cacheDir().resolve("kubeconfig111.tmp");
        Path fresh = cacheDir().resolve("kubeconfig222.tmp");
        Files.writeString(stale, "{");
        Files.writeString(fresh, "{");
        Files.setLastModifiedTime(
                stale, FileTime.fromMillis(System.currentTimeMillis() - KubeConfigCache.STALE_TEMP_MILLIS - 60_000));

        Path b = write("b", 2222, "tb", "nb");
        KubeConfig.load(b, cache);
        assertThat(entries()).doesNotContain(stale).contains(fresh, entryOf(b));
    }
}
