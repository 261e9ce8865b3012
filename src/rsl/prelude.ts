// The lighting functions of the standard library written in RSL itself (RenderMan Interface 3.2,
// section 15.5), inlined like user functions. Writing them as illuminance loops is what lets
// illuminance merging fuse diffuse() and specular() into one loop over the lights.
//
// As in PRMan (and "Advanced RenderMan", section 9.3), a light's float parameter __nondiffuse
// (__nonspecular) scales its contribution to diffuse() (specular() and phong()) by 1 - value: 1 keeps
// the light out, 0 or no such parameter leaves it in. The lowering answers lightsource() with a
// constant 0 when no light of the pipeline has the parameter, so those pipelines pay nothing.
export const LIGHTING_PRELUDE = `
color __rsl_diffuse(normal Nn) {
  color C = 0;
  normal Nu = normalize(Nn);
  illuminance(P, Nu, PI / 2) {
    float __nondiffuse = 0;
    lightsource("__nondiffuse", __nondiffuse);
    C += (1 - __nondiffuse) * Cl * (normalize(L) . Nu);
  }
  return C;
}
color __rsl_specular(normal Nn; vector V; float roughness) {
  color C = 0;
  normal Nu = normalize(Nn);
  illuminance(P, Nu, PI / 2) {
    float __nonspecular = 0;
    lightsource("__nonspecular", __nonspecular);
    C += (1 - __nonspecular) * Cl * specularbrdf(normalize(L), Nu, V, roughness);
  }
  return C;
}
color __rsl_phong(normal Nn; vector V; float size) {
  color C = 0;
  vector R = reflect(-normalize(V), normalize(Nn));
  illuminance(P, Nn, PI / 2) {
    float __nonspecular = 0;
    lightsource("__nonspecular", __nonspecular);
    C += (1 - __nonspecular) * Cl * pow(max(0, R . normalize(L)), size);
  }
  return C;
}
`;
