/* include/generated.h: stands for include/generated/autoconf.h */
#define CONFIG_FOO 1
#define CONFIG_BAZ_MODULE 1
#define CONFIG_QUX y
