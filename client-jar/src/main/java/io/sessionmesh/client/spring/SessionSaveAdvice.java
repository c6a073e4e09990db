package io.sessionmesh.client.spring;

import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/** Saves the request's session (if it changed) just before a {@code @ResponseBody} answer is written. */
@ControllerAdvice
public class SessionSaveAdvice implements ResponseBodyAdvice<Object> {
    private final CurrentSession current;

    public SessionSaveAdvice(CurrentSession current) {
        this.current = current;
    }

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType contentType,
                                  Class<? extends HttpMessageConverter<?>> converterType, ServerHttpRequest request,
                                  ServerHttpResponse response) {
        if (request instanceof ServletServerHttpRequest r) {
            current.saveIfDirty(r.getServletRequest());
        }
        return body;
    }
}
