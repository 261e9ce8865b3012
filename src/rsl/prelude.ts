// The lighting functions of the standard library written in RSL itself (RenderMan Interface 3.2,
// section 15.5), inlined like user functions. Writing them as illuminance loops is what lets
// illuminance merging fuse diffuse() and specular() into one loop over the lights.
export const LIGHTING_PRELUDE = `
color __rsl_diffuse(normal Nn) {
  color C = 0;
  normal Nu = normalize(Nn);
  illuminance(P, Nu, PI / 2) C += Cl * (normalize(L) . Nu);
  return C;
}
color __rsl_specular(normal Nn; vector V; float roughness) {
  color C = 0;
  normal Nu = normalize(Nn);
  illuminance(P, Nu, PI / 2) C += Cl * specularbrdf(normalize(L), Nu, V, roughness);
  return C;
}
color __rsl_phong(normal Nn; vector V; float size) {
  color C = 0;
  vector R = reflect(-normalize(V), normalize(Nn));
  illuminance(P, Nn, PI / 2) C += Cl * pow(max(0, R . normalize(L)), size);
  return C;
}
`;
