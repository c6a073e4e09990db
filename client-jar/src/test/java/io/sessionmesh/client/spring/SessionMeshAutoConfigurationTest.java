package io.sessionmesh.client.spring;

import io.sessionmesh.client.ClientMetrics;
import io.sessionmesh.client.SaveMode;
import io.sessionmesh.client.SessionMeshClient;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** The auto-configuration's beans and properties, without a network (the client connects lazily). */
class SessionMeshAutoConfigurationTest {
    final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SessionMeshAutoConfiguration.class))
            .withPropertyValues("sessionmesh.allowed-packages=com.example.bank");

    @Test
    void webApp_getsClientCurrentSessionInterceptorAndAdvices() {
        web.withPropertyValues("sessionmesh.sidecar-uri=http://127.0.0.1:7599", "sessionmesh.save-mode=ON_SET",
                "sessionmesh.pool-size=7").run(ctx -> {
                    SessionMeshClient client = ctx.getBean(SessionMeshClient.class);
                    assertThat(client.sidecar().getPort()).isEqualTo(7599);
                    assertThat(client.saveMode()).isEqualTo(SaveMode.ON_SET);
                    assertThat(client.toString()).contains("pool 7");
                    assertThat(ctx).hasSingleBean(CurrentSession.class).hasSingleBean(SessionSectionsInterceptor.class)
                            .hasSingleBean(SessionSaveAdvice.class).hasSingleBean(SessionMeshErrorAdvice.class);
                });
    }

    @Test
    void nonWebApp_getsTheClientOnly() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SessionMeshAutoConfiguration.class))
                .withPropertyValues("sessionmesh.allowed-packages=com.example.bank,com.example.common").run(ctx -> {
                    assertThat(ctx).hasSingleBean(SessionMeshClient.class).doesNotHaveBean(SessionSectionsInterceptor.class);
                    assertThat(ctx.getBean(SessionMeshClient.class).toString())
                            .contains("com.example.bank", "com.example.common");
                });
    }

    @Test
    void withAMeterRegistry_callsAreMeasured() {
        web.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(ctx -> {
            ClientMetrics metrics = ctx.getBean(ClientMetrics.class);
            assertThat(metrics).isInstanceOf(MicrometerClientMetrics.class);
            metrics.call("read", 200, 1_000_000, 100, 2000);
            metrics.decodeFailure("s", "a", new RuntimeException("x"));
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            assertThat(registry.get("sessionmesh.client.calls").tag("operation", "read").timer().count()).isEqualTo(1);
            assertThat(registry.get("sessionmesh.client.decode.failures").counter().count()).isEqualTo(1.0);
            assertThat(registry.get("sessionmesh.client.bytes").tag("direction", "received").summary().totalAmount())
                    .isEqualTo(2000.0);
        });
    }

    @Test
    void cookieSettings_areChecked_namingTheProperty() {
        web.withPropertyValues("sessionmesh.cookie-same-site=sometimes").run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("sessionmesh.cookie-same-site = sometimes");
        });
        web.withPropertyValues("sessionmesh.cookie-same-site=None", "sessionmesh.cookie-secure=false").run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("\"None\" needs sessionmesh.cookie-secure = true");
        });
        web.withPropertyValues("sessionmesh.cookie-same-site=Strict", "sessionmesh.cookie-secure=false")
                .run(ctx -> assertThat(ctx).hasNotFailed());
    }

    @Test
    void withoutAllowedPackages_theContextFailsToStart_namingThePropertyWithAnExample() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SessionMeshAutoConfiguration.class))
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    assertThat(ctx.getStartupFailure()).rootCause()
                            .hasMessageContaining("sessionmesh.allowed-packages")
                            .hasMessageContaining("sessionmesh.allowed-packages=com.example.bank (comma-separated");
                });
    }

    @Test
    void badProperty_failsTheContext_namingIt() {
        web.withPropertyValues("sessionmesh.pool-size=0").run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("poolSize = 0");
        });
    }
}
