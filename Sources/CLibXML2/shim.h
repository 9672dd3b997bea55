#ifndef ASSETC_CLIBXML2_SHIM_H
#define ASSETC_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, and its encoding.h then includes ICU's headers, whose
   UErrorCode clashes with the copy Foundation carries. assetc never touches the encoding-handler
   fields that depend on this macro (only pointers to the struct), so hiding ICU here is safe. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>
#include <stdarg.h>

/* libxml2 reports a document whose bytes do not decode in its declared encoding through the
   generic error handler, which writes "encoding error" lines to stderr even with
   XML_PARSE_NOERROR. Swift cannot define a C variadic function, nor hold a pointer to one, so
   the silent handler and the saved one live here. The handler is per thread in Debian's
   threaded libxml2; the caller puts the saved one back when its parse is done. */
static void assetc_xml_ignore(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

typedef struct {
    void *handler;
    void *context;
} assetc_xml_error_handler;

static inline assetc_xml_error_handler assetc_xml_silence_generic_errors(void) {
    assetc_xml_error_handler saved = { (void *)*__xmlGenericError(), *__xmlGenericErrorContext() };
    xmlSetGenericErrorFunc(NULL, assetc_xml_ignore);
    return saved;
}

static inline void assetc_xml_restore_generic_errors(assetc_xml_error_handler saved) {
    xmlSetGenericErrorFunc(saved.context, (xmlGenericErrorFunc)saved.handler);
}
#endif
