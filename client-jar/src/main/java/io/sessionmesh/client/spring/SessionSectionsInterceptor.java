package io.sessionmesh.client.spring;

import io.sessionmesh.client.processor.SectionIndex;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.ModelAndView;

/**
 * Tells {@link CurrentSession} which sections the matched handler declared (from the processor's index: no
 * reflection over classes), sets the route cookie on answers of session-bearing endpoints, and saves the session
 * before a view is rendered. Answers written by {@code @ResponseBody} handlers are saved by
 * {@link SessionSaveAdvice} before their body is written, so that a failed save is the request's error, not a lost
 * write; what is still unsaved when the request completes without error is saved last here.
 */
public final class SessionSectionsInterceptor implements HandlerInterceptor {
    private static final Logger log = LoggerFactory.getLogger(SessionSectionsInterceptor.class);

    private final SectionIndex index;
    private final CurrentSession current;

    public SessionSectionsInterceptor(SectionIndex index, CurrentSession current) {
        this.index = index;
        this.current = current;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod hm) {
            SectionIndex.Entry entry = index.forMethod(hm.getMethod());
            if (entry != null) {
                CurrentSession.State state = CurrentSession.state(request);
                state.declared = entry.sections();
                state.sessionBearing = true;
                String id = current.sessionId(request);
                if (id != null) {
                    current.setRouteCookie(request, response, id);
                }
            }
        }
        return true;
    }

    @Override
    public void postHandle(HttpServletRequest request, HttpServletResponse response, Object handler, ModelAndView view) {
        current.saveIfDirty(request);
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
        if (ex == null) {
            try {
                current.saveIfDirty(request);
            } catch (RuntimeException e) {
                log.error("saving the session after the answer was sent failed; its changes are lost", e);
            }
        }
    }
}
