package io.kplane.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.batch.Job;
import org.junit.jupiter.api.Test;

class OwnStatusWritesTest {
    private static final String KEY = FakeWorld.NS + "/foobar";

    private static Job at(String resourceVersion) {
        Job job = FakeWorld.job(1, 1);
        return job.withMetadata(job.metadata().withResourceVersion(resourceVersion));
    }

    @Test
    void ourWriteIsTheBaseUntilTheCacheCatchesUp() {
        OwnStatusWrites writes = new OwnStatusWrites();
        Job written = at("7");
        writes.remember(KEY, at("5"), written);

        assertThat(writes.newestOf(KEY, at("5"))).isSameAs(written);
        assertThat(writes.newestOf(KEY, at("6"))).isSameAs(written);

        Job caughtUp = at("7");
        assertThat(writes.newestOf(KEY, caughtUp)).isSameAs(caughtUp);
        assertThat(writes.size()).isZero();
        assertThat(writes.newestOf(KEY, at("5")).metadata().resourceVersion()).isEqualTo("5");
    }

    @Test
    void aNewerRevisionByAnotherWriterOrAnotherJobIsTakenFromTheCache() {
        OwnStatusWrites writes = new OwnStatusWrites();
        writes.remember(KEY, at("5"), at("7"));
        Job newer = at("9");
        assertThat(writes.newestOf(KEY, newer)).isSameAs(newer);

        writes.remember(KEY, at("5"), at("7"));
        Job other = at("3").withMetadata(at("3").metadata().withUid("another-uid"));
        assertThat(writes.newestOf(KEY, other)).isSameAs(other);
        assertThat(writes.size()).isZero();
    }

    @Test
    void aSyncThatWroteNothingIsNotRemembered() {
        OwnStatusWrites writes = new OwnStatusWrites();
        Job job = at("5");
        writes.remember(KEY, job, job);
        writes.remember(KEY, job, at("5"));
        assertThat(writes.size()).isZero();

        writes.remember(KEY, at("5"), at("6"));
        writes.forget(KEY);
        assertThat(writes.size()).isZero();
    }
}
