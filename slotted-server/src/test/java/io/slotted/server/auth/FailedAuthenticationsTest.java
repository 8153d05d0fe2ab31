package io.slotted.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The bound on wrong tokens per address: a burst, then one a second; other addresses untouched; an
 * IPv6 /64 counted as one; and through {@link GuardedAccess}, a held-back token not even checked.
 * Time is a ticker the test moves.
 */
class FailedAuthenticationsTest {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final FailedAuthentications failures = new FailedAuthentications(nanos::get);

    private void advanceSeconds(double seconds) {
        nanos.addAndGet((long) (seconds * TimeUnit.SECONDS.toNanos(1)));
    }

    private static InetAddress address(String text) throws Exception {
        return InetAddress.getByName(text);
    }

    @Test
    void anAddress_isAllowedItsBurst_thenOneFailureASecond() throws Exception {
        InetAddress guesser = address("192.0.2.7");
        for (int i = 0; i < FailedAuthentications.BURST; i++) {
            assertThat(failures.allows(guesser)).as("failure %d", i + 1).isTrue();
            failures.failed(guesser);
        }

        assertThat(failures.allows(guesser)).isFalse();
        assertThat(failures.secondsToWait(guesser)).isEqualTo(1);
        advanceSeconds(0.5);
        assertThat(failures.allows(guesser)).isFalse();
        advanceSeconds(0.5);
        assertThat(failures.allows(guesser)).isTrue();
        failures.failed(guesser);
        assertThat(failures.allows(guesser)).isFalse();
        advanceSeconds(FailedAuthentications.BURST);
        assertThat(failures.allows(guesser)).as("a full allowance again").isTrue();
    }

    @Test
    void anotherAddress_isNotHeldBackByTheFirst() throws Exception {
        InetAddress guesser = address("192.0.2.7");
        for (int i = 0; i < 3 * FailedAuthentications.BURST; i++) {
            failures.failed(guesser);
        }

        assertThat(failures.allows(guesser)).isFalse();
        assertThat(failures.secondsToWait(guesser)).isEqualTo(2L * FailedAuthentications.BURST + 1);
        assertThat(failures.allows(address("192.0.2.8"))).isTrue();
        assertThat(failures.secondsToWait(address("192.0.2.8"))).isEqualTo(1);
    }

    @Test
    void ipv6Addresses_ofOneSlash64_shareAnAllowance() throws Exception {
        for (int i = 0; i < FailedAuthentications.BURST; i++) {
            failures.failed(address("2001:db8:1:2::" + Integer.toHexString(i + 1)));
        }

        assertThat(failures.allows(address("2001:db8:1:2::ffff"))).isFalse();
        assertThat(failures.allows(address("2001:db8:1:3::1"))).isTrue();
    }

    @Test
    void guardedAccess_countsOnlyWrongTokens_andChecksNoTokenOfAHeldBackAddress() throws Exception {
        InetAddress guesser = address("192.0.2.9");
        AtomicLong checked = new AtomicLong();
        AccessCheck tokens = (token, required) -> {
            checked.incrementAndGet();
            if (token == null) {
                return AccessDecision.NO_TOKEN;
            }
            return token.equals("right") ? (required == Scope.ADMIN ? AccessDecision.LACKS_SCOPE
                    : AccessDecision.GRANTED) : AccessDecision.UNKNOWN_TOKEN;
        };
        GuardedAccess access = new GuardedAccess(tokens, failures);

        for (int i = 0; i < 50; i++) {
            assertThat(access.check(guesser, null, Scope.READ)).isEqualTo(AccessDecision.NO_TOKEN);
            assertThat(access.check(guesser, "right", Scope.ADMIN)).isEqualTo(AccessDecision.LACKS_SCOPE);
        }
        assertThat(failures.allows(guesser)).as("no token and too little scope are no guesses").isTrue();
        for (int i = 0; i < FailedAuthentications.BURST; i++) {
            assertThat(access.check(guesser, "wrong-" + i, Scope.READ)).isEqualTo(AccessDecision.UNKNOWN_TOKEN);
        }
        long before = checked.get();

        assertThat(access.check(guesser, "right", Scope.READ)).isEqualTo(AccessDecision.HELD_BACK);
        assertThat(access.check(guesser, "wrong", Scope.READ)).isEqualTo(AccessDecision.HELD_BACK);
        assertThat(checked.get()).as("held-back tokens are not checked").isEqualTo(before);
        assertThat(access.check(address("192.0.2.10"), "right", Scope.READ)).isEqualTo(AccessDecision.GRANTED);
        advanceSeconds(1);
        assertThat(access.check(guesser, "right", Scope.READ)).isEqualTo(AccessDecision.GRANTED);
    }
}
