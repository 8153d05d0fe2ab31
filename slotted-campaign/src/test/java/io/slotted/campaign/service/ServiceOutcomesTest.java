package io.slotted.campaign.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.campaign.history.Outcome;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/** How the service campaign reads the service's answers, word for word as the server sends them. */
class ServiceOutcomesTest {
    @Test
    void httpErrors_sayNothingApplied_butOutcomeUnknownAndInternalErrors() {
        assertThat(ServiceOutcomes.ofHttpError(409, "limit_exceeded")).isEqualTo(Outcome.FAILED);
        assertThat(ServiceOutcomes.ofHttpError(422, "overflow")).isEqualTo(Outcome.FAILED);
        assertThat(ServiceOutcomes.ofHttpError(503, "timeout")).isEqualTo(Outcome.FAILED);
        assertThat(ServiceOutcomes.ofHttpError(503, "database_unavailable")).isEqualTo(Outcome.FAILED);
        assertThat(ServiceOutcomes.ofHttpError(503, "outcome_unknown")).isEqualTo(Outcome.UNKNOWN);
        assertThat(ServiceOutcomes.ofHttpError(500, "internal_error")).isEqualTo(Outcome.UNKNOWN);
        assertThat(ServiceOutcomes.ofHttpError(502, null)).isEqualTo(Outcome.UNKNOWN);
    }

    @Test
    void respErrors_sayNothingApplied_butOutcomeUnknown_andAppliedButUnread() {
        assertThat(ServiceOutcomes.ofRespError("ERR limit exceeded: adding -3 would take the counter's total 0"
                + " outside its type's limits 0..; nothing was applied")).isEqualTo(Outcome.FAILED);
        assertThat(ServiceOutcomes.ofRespError("ERR timeout: the command did not finish within 10000ms"))
                .isEqualTo(Outcome.FAILED);
        assertThat(ServiceOutcomes.ofRespError("EXECABORT Transaction discarded because of previous errors."))
                .isEqualTo(Outcome.FAILED);
        assertThat(ServiceOutcomes.ofRespError("ERR outcome unknown: the database connection was lost while"
                + " committing")).isEqualTo(Outcome.UNKNOWN);
        assertThat(ServiceOutcomes.ofRespError("ERR outcome unknown: the server failed unexpectedly and logged why,"
                + " so the increment may or may not have been applied")).isEqualTo(Outcome.UNKNOWN);
        assertThat(ServiceOutcomes.ofRespError("ERR the increment was applied, but the total could not be read after"
                + " it (timeout): do not retry the increment; read the counter with GET")).isEqualTo(Outcome.OK);
    }

    @Test
    void aRequestThatCouldNotConnect_failed_oneCutAfterItWasSent_isUnknown_andOneWaitedOutStaysOpen() {
        assertThat(ServiceOutcomes.ofWriteFailure(new ConnectException("refused"))).isEqualTo(Outcome.FAILED);
        assertThat(ServiceOutcomes.ofWriteFailure(new NeverSentException("down", null))).isEqualTo(Outcome.FAILED);
        assertThat(ServiceOutcomes.ofWriteFailure(new JedisConnectionException("Unexpected end of stream.")))
                .isEqualTo(Outcome.UNKNOWN);
        assertThat(ServiceOutcomes.ofWriteFailure(new JedisDataException("ERR outcome unknown: x")))
                .isEqualTo(Outcome.UNKNOWN);
        assertThat(ServiceOutcomes.gaveUpWaiting(new HttpTimeoutException("request timed out"))).isTrue();
        assertThat(ServiceOutcomes.gaveUpWaiting(new JedisConnectionException(new SocketTimeoutException()))).isTrue();
        assertThat(ServiceOutcomes.gaveUpWaiting(new JedisConnectionException("Unexpected end of stream."))).isFalse();
    }
}
