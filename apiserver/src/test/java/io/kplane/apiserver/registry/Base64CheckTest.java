package io.kplane.apiserver.registry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Offsets as Go's base64.StdEncoding reports them in "illegal base64 data at input byte N". */
class Base64CheckTest {
    @Test
    void validInputs() {
        for (String ok : new String[] {"", "YQ==", "YWI=", "YWJj", "YWJj\nZGVm"}) {
            assertThat(Base64Check.firstIllegalByte(ok)).as(ok).isEqualTo(-1);
        }
    }

    @Test
    void offsetsOfProblems() {
        assertThat(Base64Check.firstIllegalByte("not*base64")).isEqualTo(3);
        assertThat(Base64Check.firstIllegalByte("YQ=x")).isEqualTo(2);
        assertThat(Base64Check.firstIllegalByte("YQ=")).isEqualTo(3);
        assertThat(Base64Check.firstIllegalByte("=")).isEqualTo(0);
        assertThat(Base64Check.firstIllegalByte("YWJjZ")).isEqualTo(4);
        assertThat(Base64Check.firstIllegalByte("YQ")).isEqualTo(0);
        assertThat(Base64Check.firstIllegalByte("YQ==YQ==")).isEqualTo(4);
    }
}
